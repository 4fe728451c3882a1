import MediaCore
import MediaCrypto
import Testing

@Suite struct SymmetricKeyTests {
    @Test func neverPrintsItsBytes() {
        let key = SymmetricKey(bytes: Array("supersecretkeymaterial-0123456789".utf8))
        #expect(key.description == "SymmetricKey(<redacted>, 33 bytes)")
        #expect(String(reflecting: key) == "SymmetricKey(<redacted>, 33 bytes)")
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("supersecret"))
        #expect("\(key)" == "SymmetricKey(<redacted>, 33 bytes)")
    }

    @Test func destroyZeroesAndRefusesUse() throws {
        let key = try SymmetricKey()
        #expect(!key.isDestroyed)
        let sealed = try AESGCM.seal([1, 2, 3], key: key)
        key.destroy()
        key.destroy()
        #expect(key.isDestroyed)
        #expect(throws: CryptoError(.keyDestroyed, "the key was destroyed")) { try AESGCM.open(sealed, key: key) }
        #expect(throws: CryptoError(.keyDestroyed, "the key was destroyed")) {
            try HMACSHA256.authenticationCode(for: [1], key: key)
        }
    }

    @Test func randomKeysDiffer() throws {
        let a = try SymmetricKey(), b = try SymmetricKey()
        let macA = try HMACSHA256.authenticationCode(for: [0], key: a)
        let macB = try HMACSHA256.authenticationCode(for: [0], key: b)
        #expect(macA != macB)
        #expect(a.byteCount == 32)
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 3]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func hexRoundTrip() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func secureRandomBytes() throws {
        let a = try SecureRandom.bytes(count: 32), b = try SecureRandom.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect((5...9).contains(SecureRandom.uniform(in: 5...9)))
    }
}
