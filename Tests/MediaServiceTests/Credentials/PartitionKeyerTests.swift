import MediaCrypto
import MediaService
import Testing

@Suite struct PartitionKeyerTests {
    let keyer = PartitionKeyer(key: SymmetricKey(bytes: Array(0..<32)))

    @Test func knownAnswers() throws {
        // HMAC-SHA256(key 00…1f, "mediactl-partition-v1\n" + token), computed with Python's hmac.
        #expect(try keyer.partition(for: BearerToken(token: "t1")).hex
            == "6753aa77a09d3d8ff70c31e51afe45106a94ebc6d957f400539fdaa28bf9d35c")
        #expect(try keyer.partition(for: BearerToken(token: "t2")).hex
            == "cb0b9f8b7ac115b932f6c2acad4b7255e2ee1255f3cc28eb6ec7e327a33841c8")
    }

    @Test func stableWithinAKeyDifferentAcrossKeys() throws {
        let token = try BearerToken(token: "t1")
        #expect(try keyer.partition(for: token) == keyer.partition(for: token))
        let other = try PartitionKeyer()
        #expect(try other.partition(for: token) != keyer.partition(for: token))
        #expect(try other.partition(for: token).hex.count == 64)
    }

    @Test func neverShowsKeyOrToken() throws {
        let id = try keyer.partition(for: BearerToken(token: "t1"))
        #expect(!id.hex.contains("t1"))
        #expect(keyer.description == "PartitionKeyer(<redacted>)")
        var dumped = ""
        dump(keyer, to: &dumped)
        #expect(!dumped.contains("0, 1, 2"))
    }

    @Test func destroyedKeyThrows() throws {
        let keyer = PartitionKeyer(key: SymmetricKey(bytes: Array(0..<32)))
        keyer.destroyKey()
        #expect(throws: CryptoError(.keyDestroyed, "the key was destroyed")) {
            try keyer.partition(for: BearerToken(token: "t1"))
        }
    }

    /// By `Authorization` value: the same partition as the parsed token's, whatever the scheme's case, remembered per
    /// value; a value the full path refuses gives none (and is never remembered), nor does any value once the key is gone.
    @Test func byAuthorizationValue() throws {
        let keyer = PartitionKeyer(key: SymmetricKey(bytes: Array(0..<32)))
        let t1 = "6753aa77a09d3d8ff70c31e51afe45106a94ebc6d957f400539fdaa28bf9d35c"
        for value in ["Bearer t1", "bearer t1", "BEARER t1", "Bearer t1"] {
            #expect(keyer.partition(forAuthorization: value) == t1, "\(value)")
        }
        #expect(try keyer.partition(for: BearerToken(token: "t1")).hex == t1)
        for refused in ["", "Bearer", "Bearer ", "Bearer  t1", "Basic t1", "Bearer t 1", "Bearer t1=x", "Bearertoken t1"] {
            #expect(keyer.partition(forAuthorization: refused) == nil, "\(refused)")
            #expect(keyer.partition(forAuthorization: refused) == nil, "\(refused), asked again")
        }
        #expect(keyer.partitionsComputed == 21)  // one per call
        keyer.destroyKey()
        #expect(keyer.partition(forAuthorization: "Bearer t1") == nil)
    }
}
