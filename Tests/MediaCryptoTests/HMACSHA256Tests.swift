import MediaCore
import MediaCrypto
import Testing

/// Known answers from RFC 4231 §4.
@Suite struct HMACSHA256Tests {
    private func mac(key: [UInt8], data: [UInt8]) throws -> String {
        Hex.encode(try HMACSHA256.authenticationCode(for: data, key: SymmetricKey(bytes: key)))
    }

    @Test func rfc4231TestCase1() throws {
        let code = try mac(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8))
        #expect(code == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func rfc4231TestCase2() throws {
        let code = try mac(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(code == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func rfc4231TestCase3() throws {
        let code = try mac(key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50))
        #expect(code == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    @Test func rfc4231TestCase6LargerThanBlockKey() throws {
        let code = try mac(
            key: [UInt8](repeating: 0xaa, count: 131),
            data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(code == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func emptyMessageHasAMAC() throws {
        let code = try mac(key: Array("key".utf8), data: [])
        #expect(code == "5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0")
    }

    @Test func validationIsExact() throws {
        let key = SymmetricKey(bytes: Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        let code = try HMACSHA256.authenticationCode(for: message, key: key)
        #expect(try HMACSHA256.isValid(code, for: message, key: key))
        var wrong = code
        wrong[31] ^= 1
        #expect(try !HMACSHA256.isValid(wrong, for: message, key: key))
        #expect(try !HMACSHA256.isValid(Array(code.prefix(31)), for: message, key: key))
    }
}
