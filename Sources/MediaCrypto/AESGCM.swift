import COpenSSL

/// AES-256-GCM authenticated encryption (NIST SP 800-38D) through OpenSSL's EVP interface.
///
/// The sealed form ("combined") is `nonce (12 bytes) ‖ ciphertext (same length as the plaintext)
/// ‖ tag (16 bytes)`: ``overhead`` = 28 bytes. Nonces are 96-bit and random unless given (only
/// known-answer tests give one). Associated data is authenticated, not encrypted.
public enum AESGCM {
    /// Nonce length in bytes: 12 (96 bits).
    public static let nonceByteCount = 12
    /// Tag length in bytes: 16 (128 bits).
    public static let tagByteCount = 16
    /// Bytes a sealed box adds to its plaintext: 28.
    public static let overhead = nonceByteCount + tagByteCount
    /// Key length in bytes: 32 (AES-256).
    public static let keyByteCount = 32

    private static let chunk = 1 << 30

    /// Seals `plaintext` under `key`.
    /// - Parameters:
    ///   - plaintext: bytes to encrypt.
    ///   - key: a 32-byte key.
    ///   - associatedData: bytes to authenticate with the ciphertext (e.g. a file name and a format version).
    ///   - nonce: 12 bytes, or `nil` (the default) for a fresh random nonce. Never reuse a nonce under a key.
    /// - Returns: the combined sealed box, `plaintext.count + 28` bytes.
    /// - Throws: ``CryptoError/Code/invalidInput`` for a wrong key or nonce size,
    ///   ``CryptoError/Code/keyDestroyed``, ``CryptoError/Code/openSSLFailure``.
    public static func seal(
        _ plaintext: UnsafeRawBufferPointer, key: SymmetricKey,
        authenticating associatedData: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        nonce: [UInt8]? = nil
    ) throws -> [UInt8] {
        guard key.byteCount == keyByteCount else { throw CryptoError(.invalidInput, "AES-256-GCM needs a 32-byte key") }
        let nonce = try nonce ?? SecureRandom.bytes(count: nonceByteCount)
        guard nonce.count == nonceByteCount else { throw CryptoError(.invalidInput, "AES-GCM nonce must be 12 bytes") }
        let total = plaintext.count + overhead
        return try [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            initialized = 0
            let outRaw = UnsafeMutableRawBufferPointer(out)
            outRaw.copyBytes(from: nonce)
            guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.openSSLFailure, "EVP_CIPHER_CTX_new") }
            defer { EVP_CIPHER_CTX_free(context) }
            try key.withUnsafeBytes { keyBytes in
                guard nonce.withUnsafeBufferPointer({
                    EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.baseAddress)
                }) == 1 else { throw CryptoError(.openSSLFailure, "EVP_EncryptInit_ex") }
            }
            try feedAAD(context, associatedData, encrypt: true)
            let body = out.baseAddress! + nonceByteCount
            try crypt(context, input: plaintext, output: body, encrypt: true)
            var finalLength: Int32 = 0
            guard EVP_EncryptFinal_ex(context, body + plaintext.count, &finalLength) == 1 else {
                throw CryptoError(.openSSLFailure, "EVP_EncryptFinal_ex")
            }
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), body + plaintext.count) == 1 else {
                throw CryptoError(.openSSLFailure, "EVP_CTRL_GCM_GET_TAG")
            }
            initialized = total
        }
    }

    /// Seals bytes; see ``seal(_:key:authenticating:nonce:)``.
    public static func seal(
        _ plaintext: [UInt8], key: SymmetricKey, authenticating associatedData: [UInt8] = [], nonce: [UInt8]? = nil
    ) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { p in
            try associatedData.withUnsafeBytes { a in try seal(p, key: key, authenticating: a, nonce: nonce) }
        }
    }

    /// Opens a combined sealed box.
    /// - Returns: the plaintext, `sealed.count - 28` bytes.
    /// - Throws: ``CryptoError/Code/authenticationFailure`` when the key, the associated data or any
    ///   byte differs from sealing time; ``CryptoError/Code/invalidInput`` when `sealed` is shorter than 28 bytes.
    public static func open(
        _ sealed: UnsafeRawBufferPointer, key: SymmetricKey,
        authenticating associatedData: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) throws -> [UInt8] {
        guard key.byteCount == keyByteCount else { throw CryptoError(.invalidInput, "AES-256-GCM needs a 32-byte key") }
        guard sealed.count >= overhead else { throw CryptoError(.invalidInput, "sealed box shorter than 28 bytes") }
        let length = sealed.count - overhead
        let base = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return try [UInt8](unsafeUninitializedCapacity: max(length, 1)) { out, initialized in
            initialized = 0
            guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.openSSLFailure, "EVP_CIPHER_CTX_new") }
            defer { EVP_CIPHER_CTX_free(context) }
            try key.withUnsafeBytes { keyBytes in
                guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), base) == 1 else {
                    throw CryptoError(.openSSLFailure, "EVP_DecryptInit_ex")
                }
            }
            try feedAAD(context, associatedData, encrypt: false)
            try crypt(context, input: UnsafeRawBufferPointer(start: base + nonceByteCount, count: length),
                      output: out.baseAddress!, encrypt: false)
            let tag = UnsafeMutableRawPointer(mutating: base + nonceByteCount + length)
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), tag) == 1 else {
                throw CryptoError(.openSSLFailure, "EVP_CTRL_GCM_SET_TAG")
            }
            var finalLength: Int32 = 0
            guard EVP_DecryptFinal_ex(context, out.baseAddress! + length, &finalLength) == 1 else {
                mediactl_openssl_cleanse(out.baseAddress, length)
                throw CryptoError(.authenticationFailure, "AES-GCM tag mismatch")
            }
            initialized = length
        }
    }

    /// Opens a combined sealed box held in an array; see ``open(_:key:authenticating:)``.
    public static func open(_ sealed: [UInt8], key: SymmetricKey, authenticating associatedData: [UInt8] = []) throws -> [UInt8] {
        try sealed.withUnsafeBytes { s in
            try associatedData.withUnsafeBytes { a in try open(s, key: key, authenticating: a) }
        }
    }

    private static func feedAAD(_ context: OpaquePointer, _ aad: UnsafeRawBufferPointer, encrypt: Bool) throws {
        guard aad.count > 0 else { return }
        var outLength: Int32 = 0
        let pointer = aad.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let ok = encrypt
            ? EVP_EncryptUpdate(context, nil, &outLength, pointer, Int32(aad.count))
            : EVP_DecryptUpdate(context, nil, &outLength, pointer, Int32(aad.count))
        guard ok == 1 else { throw CryptoError(.openSSLFailure, "AES-GCM associated data") }
    }

    private static func crypt(
        _ context: OpaquePointer, input: UnsafeRawBufferPointer, output: UnsafeMutablePointer<UInt8>, encrypt: Bool
    ) throws {
        var offset = 0
        while offset < input.count {
            let count = min(chunk, input.count - offset)
            var outLength: Int32 = 0
            let source = input.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset
            let ok = encrypt
                ? EVP_EncryptUpdate(context, output + offset, &outLength, source, Int32(count))
                : EVP_DecryptUpdate(context, output + offset, &outLength, source, Int32(count))
            guard ok == 1, Int(outLength) == count else { throw CryptoError(.openSSLFailure, "AES-GCM update") }
            offset += count
        }
    }
}
