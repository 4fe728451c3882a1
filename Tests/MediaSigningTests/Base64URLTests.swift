import MediaSigning
import Testing

@Suite struct Base64URLTests {
    @Test func encodesWithoutPadding() {
        #expect(Base64URL.encode([]) == "")
        #expect(Base64URL.encode([0xFB]) == "-w")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw")
    }

    @Test func decodesOnlyTheOneSpelling() {
        #expect(Base64URL.decode("YW55IGNhcm5hbCBwbGVhcw") == Array("any carnal pleas".utf8))
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_9") == nil)        // unused bits set
        #expect(Base64URL.decode("YQ==") == nil)       // padding
        #expect(Base64URL.decode("Y") == nil)          // 1 modulo 4
        #expect(Base64URL.decode("+/8") == nil)        // the standard alphabet
        #expect(Base64URL.decode("") == [])
    }
}
