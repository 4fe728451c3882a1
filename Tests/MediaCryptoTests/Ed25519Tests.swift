import MediaCore
import MediaCrypto
import Testing

/// Ed25519 through OpenSSL, against RFC 8032 §7.1.
@Suite struct Ed25519Tests {
    @Test func rfc8032Test1() throws {
        let key = try Ed25519SigningKey(seed: Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!)
        #expect(Hex.encode(key.publicKey) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try key.sign([])
        #expect(Hex.encode(signature) == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        #expect(Ed25519SigningKey.verify(signature, of: [], publicKey: key.publicKey))
        #expect(!Ed25519SigningKey.verify(signature, of: [0], publicKey: key.publicKey))
        #expect(key.description == "Ed25519SigningKey(public: d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a)")
    }

    @Test func refusesAWrongSeed() {
        #expect(throws: CryptoError(.invalidInput, "an Ed25519 seed has 32 bytes, not 31")) {
            try Ed25519SigningKey(seed: Array(repeating: 1, count: 31))
        }
    }
}
