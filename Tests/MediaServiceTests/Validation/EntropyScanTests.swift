@testable import MediaService
import Testing

/// `ImageValidator.skipEntropyCodedData` (memchr-based): the offset of the next real marker.
@Suite struct EntropyScanTests {
    private func scan(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        try? ImageValidator.skipEntropyCodedData(bytes, from: start)
    }

    @Test func findsTheNextMarkerSkippingStuffingAndRestarts() {
        #expect(scan([0x12, 0x34, 0xFF, 0xD9]) == 2)
        #expect(scan([0xFF, 0x00, 0x01, 0xFF, 0xD0, 0x02, 0xFF, 0xD7, 0xFF, 0xD9]) == 8)
        // Fill bytes: FF FF … before a marker; the marker starts at the last FF.
        #expect(scan([0x01, 0xFF, 0xFF, 0xFF, 0xC4, 0x00]) == 3)
        #expect(scan([0xFF, 0xDA, 0x00], from: 0) == 0)
        #expect(scan([0x00, 0x00, 0xFF, 0xD9, 0xFF, 0xD9], from: 3) == 4)
        var long = [UInt8](repeating: 0x5A, count: 100_000)
        for index in stride(from: 7, to: 99_000, by: 97) { long[index] = 0xFF; long[index + 1] = 0x00 }
        long[99_990] = 0xFF
        long[99_991] = 0xD9
        #expect(scan(long) == 99_990)
    }

    @Test func refusesDataWithoutAMarker() {
        #expect(scan([]) == nil)
        #expect(scan([0xFF]) == nil)
        #expect(scan([0x00, 0x01, 0x02]) == nil)
        #expect(scan([0x00, 0xFF]) == nil)
        #expect(scan([0xFF, 0x00, 0xFF, 0xD3]) == nil)
        #expect(scan([0x00, 0xFF, 0xFF]) == nil)
        do {
            _ = try ImageValidator.skipEntropyCodedData([0x01, 0x02, 0xFF], from: 0)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .truncatedImage)
            #expect(error.context == "JPEG: ends at byte 3 inside entropy-coded data, before EOI")
        }
    }
}
