import MediaCrypto
import Testing

/// Known answers from FIPS 180-4's examples (NIST CSRC "SHA256.pdf").
@Suite struct SHA256Tests {
    @Test func emptyMessage() {
        #expect(SHA256.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func oneBlockMessageABC() {
        #expect(SHA256.hash("abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hash(message).hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalEqualsOneShot() {
        var hasher = SHA256()
        hasher.update("abcdbcdecdefdefg")
        hasher.update(Array("efghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(hasher.finalize().hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

/// The one-shot raw-buffer form (no heap context) and the incremental form agree across block boundaries.
@Suite struct SHA256OneShotTests {
    @Test func rawBufferOneShotMatchesKnownAnswers() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(message.withUnsafeBytes { SHA256.hash($0) }.hex
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(UnsafeRawBufferPointer(start: nil, count: 0)).hex
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func incrementalInOddChunksEqualsOneShot() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 200, 607] {
            hasher.update(message[start..<(start + size)])
            start += size
        }
        #expect(start == message.count)
        #expect(hasher.finalize() == SHA256.hash(message))
        #expect(SHA256.hash(message[...]) == message.withUnsafeBytes { SHA256.hash($0) })
        #expect(SHA256.hash(String(decoding: [0x61, 0x62, 0x63], as: UTF8.self)) == SHA256.hash([0x61, 0x62, 0x63]))
    }
}
