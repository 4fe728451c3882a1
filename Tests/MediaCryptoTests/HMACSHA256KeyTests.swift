import MediaCore
import MediaCrypto
import Testing

/// The prepared, incremental HMAC-SHA256 against RFC 4231 §4's known answers and the one-shot form.
@Suite struct HMACSHA256KeyTests {
    private func prepared(_ key: [UInt8]) throws -> HMACSHA256Key { try HMACSHA256Key(SymmetricKey(bytes: key)) }

    @Test func rfc4231TestCase1() throws {
        let key = try prepared([UInt8](repeating: 0x0b, count: 20))
        #expect(Hex.encode(key.authenticationCode(for: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func rfc4231TestCase2FedOneByteAtATime() throws {
        var hasher = try prepared(Array("Jefe".utf8)).makeHasher()
        for byte in "what do ya want for nothing?".utf8 { hasher.update([byte]) }
        #expect(Hex.encode(hasher.finalize()) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func rfc4231TestCase3() throws {
        let key = try prepared([UInt8](repeating: 0xaa, count: 20))
        #expect(Hex.encode(key.authenticationCode(for: [UInt8](repeating: 0xdd, count: 50)))
            == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    @Test func rfc4231TestCase6LargerThanBlockKey() throws {
        let key = try prepared([UInt8](repeating: 0xaa, count: 131))
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(Hex.encode(key.authenticationCode(for: message))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func destroyZeroesTheMidstatesOnce() throws {
        let key = try prepared(Array("key".utf8))
        let before = key.authenticationCode(for: Array("m".utf8))
        #expect(!key.isDestroyed)
        key.destroy()
        key.destroy()
        #expect(key.isDestroyed)
        #expect(key.authenticationCode(for: Array("m".utf8)) != before)
    }

    @Test func emptyMessage() throws {
        #expect(Hex.encode(try prepared(Array("key".utf8)).authenticationCode(for: [UInt8]()))
            == "5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0")
    }

    /// Split anywhere (across the 64-byte blocks too), reused for many MACs: the one-shot answer each time.
    @Test func splitUpdatesEqualTheOneShotMAC() throws {
        let secret = SymmetricKey(bytes: (0..<32).map { UInt8($0) })
        let key = try HMACSHA256Key(secret)
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = try HMACSHA256.authenticationCode(for: message, key: secret)
        for split in [0, 1, 63, 64, 65, 128, 299, 300] {
            var hasher = key.makeHasher()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == expected, "split at \(split)")
        }
    }

    @Test func aDestroyedKeyCannotBePrepared() throws {
        let secret = try SymmetricKey()
        secret.destroy()
        #expect(throws: CryptoError.self) { try HMACSHA256Key(secret) }
    }

    @Test func neverPrintsItsState() throws {
        let key = try prepared([UInt8](repeating: 0x41, count: 32))
        #expect("\(key)" == "HMACSHA256Key(<redacted>)")
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("41"))
    }
}
