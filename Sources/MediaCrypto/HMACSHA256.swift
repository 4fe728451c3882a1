import COpenSSL

/// HMAC-SHA256 (RFC 2104, FIPS 198-1) through OpenSSL.
public enum HMACSHA256 {
    /// MAC length in bytes: 32.
    public static let byteCount = 32

    /// The HMAC-SHA256 of `message` under `key`: 32 bytes.
    /// - Throws: ``CryptoError/Code/keyDestroyed`` when `key` was destroyed.
    public static func authenticationCode(for message: UnsafeRawBufferPointer, key: SymmetricKey) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        try key.withUnsafeBytes { keyBytes in
            let ok = out.withUnsafeMutableBufferPointer { outBuffer in
                // An empty message still needs a valid pointer.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty.baseAddress!),
                        message.count, outBuffer.baseAddress, &length)
                }
            }
            guard ok != nil, length == UInt32(byteCount) else {
                throw CryptoError(.openSSLFailure, "HMAC failed")
            }
        }
        return out
    }

    /// The HMAC-SHA256 of `message` (bytes) under `key`.
    public static func authenticationCode(for message: some Sequence<UInt8>, key: SymmetricKey) throws -> [UInt8] {
        try Array(message).withUnsafeBytes { try authenticationCode(for: $0, key: key) }
    }

    /// The HMAC-SHA256 of a string's UTF-8 bytes under `key`.
    public static func authenticationCode(for message: String, key: SymmetricKey) throws -> [UInt8] {
        try authenticationCode(for: Array(message.utf8), key: key)
    }

    /// Checks a MAC in constant time. Returns `false` for a wrong length.
    public static func isValid(_ code: [UInt8], for message: some Sequence<UInt8>, key: SymmetricKey) throws -> Bool {
        ConstantTime.equals(try authenticationCode(for: message, key: key), code)
    }
}
