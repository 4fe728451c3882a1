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
