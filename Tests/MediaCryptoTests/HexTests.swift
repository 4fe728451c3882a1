import MediaCore
import MediaCrypto
import Testing

/// Lower-case hex, two digits per byte, the same from contiguous and non-contiguous input.
@Suite struct HexTests {
    @Test func encodesEveryNibble() {
        #expect(Hex.encode([0x00, 0x09, 0x0A, 0x0F, 0x10, 0x7F, 0x80, 0xA5, 0xFF]) == "00090a0f107f80a5ff")
        #expect(Hex.encode([UInt8]()) == "")
    }

    @Test func contiguousAndSequenceInputAgree() {
        let all = (0...255).map { UInt8($0) }
        let fromArray = Hex.encode(all)
        #expect(fromArray.utf8.count == 512)
        #expect(Hex.encode(all.lazy.map { $0 }) == fromArray)
        #expect(Hex.encode(all[16..<32]) == "101112131415161718191a1b1c1d1e1f")
        #expect(Hex.decode(fromArray) == all)
    }
}
