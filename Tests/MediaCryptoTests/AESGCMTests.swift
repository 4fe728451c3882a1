import MediaCore
import MediaCrypto
import Testing

/// Known answers from the GCM specification's AES-256 test cases 13–16
/// (McGrew & Viega, "The Galois/Counter Mode of Operation", the NIST-submitted test vectors).
@Suite struct AESGCMTests {
    private func hex(_ text: String) -> [UInt8] { Hex.decode(text)! }

    @Test func testCase13EmptyPlaintext() throws {
        let sealed = try AESGCM.seal([], key: SymmetricKey(bytes: [UInt8](repeating: 0, count: 32)),
                                     nonce: [UInt8](repeating: 0, count: 12))
        #expect(Hex.encode(sealed.dropFirst(12)) == "530f8afbc74536b9a963b4f1c4cb738b")
    }

    @Test func testCase14OneZeroBlock() throws {
        let sealed = try AESGCM.seal([UInt8](repeating: 0, count: 16), key: SymmetricKey(bytes: [UInt8](repeating: 0, count: 32)),
                                     nonce: [UInt8](repeating: 0, count: 12))
        #expect(Hex.encode(sealed.dropFirst(12).prefix(16)) == "cea7403d4d606b6e074ec5d3baf39d18")
        #expect(Hex.encode(sealed.suffix(16)) == "d0d1c8a799996bf0265b98b5d48ab919")
    }

    @Test func testCase16WithAssociatedData() throws {
        let key = SymmetricKey(bytes: hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let plaintext = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let nonce = hex("cafebabefacedbaddecaf888")
        let sealed = try AESGCM.seal(plaintext, key: key, authenticating: aad, nonce: nonce)
        #expect(Array(sealed.prefix(12)) == nonce)
        #expect(Hex.encode(sealed.dropFirst(12).dropLast(16)) == "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
        #expect(Hex.encode(sealed.suffix(16)) == "76fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AESGCM.open(sealed, key: key, authenticating: aad) == plaintext)
    }

    @Test func roundTripWithRandomNonces() throws {
        let key = try SymmetricKey()
        let message = Array("MARK-U1 receipt bytes".utf8)
        let first = try AESGCM.seal(message, key: key, authenticating: Array("name".utf8))
        let second = try AESGCM.seal(message, key: key, authenticating: Array("name".utf8))
        #expect(first.count == message.count + AESGCM.overhead)
        #expect(first != second)
        #expect(try AESGCM.open(first, key: key, authenticating: Array("name".utf8)) == message)
    }

    @Test func tamperWrongKeyAndWrongAssociatedDataFail() throws {
        let key = try SymmetricKey()
        let sealed = try AESGCM.seal(Array("secret".utf8), key: key, authenticating: Array("a".utf8))
        for index in [0, 12, sealed.count - 1] {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(throws: CryptoError(.authenticationFailure, "AES-GCM tag mismatch")) {
                try AESGCM.open(flipped, key: key, authenticating: Array("a".utf8))
            }
        }
        #expect(throws: CryptoError(.authenticationFailure, "AES-GCM tag mismatch")) {
            try AESGCM.open(sealed, key: try SymmetricKey(), authenticating: Array("a".utf8))
        }
        #expect(throws: CryptoError(.authenticationFailure, "AES-GCM tag mismatch")) {
            try AESGCM.open(sealed, key: key, authenticating: Array("b".utf8))
        }
        #expect(throws: CryptoError(.invalidInput, "sealed box shorter than 28 bytes")) {
            try AESGCM.open(Array(sealed.prefix(27)), key: key)
        }
    }

    @Test func wrongSizesAreRejected() throws {
        #expect(throws: CryptoError(.invalidInput, "AES-256-GCM needs a 32-byte key")) {
            try AESGCM.seal([1], key: SymmetricKey(bytes: [1, 2, 3]))
        }
        #expect(throws: CryptoError(.invalidInput, "AES-GCM nonce must be 12 bytes")) {
            try AESGCM.seal([1], key: SymmetricKey(), nonce: [1])
        }
    }
}
