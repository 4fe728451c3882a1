import Testing
import MediaCore

@Suite struct CRC32Tests {
    @Test func publishedValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)  // the CRC-32 check value
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)       // every PNG ends AE 42 60 82
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }
}
