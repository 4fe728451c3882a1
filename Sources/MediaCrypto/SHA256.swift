import COpenSSL

/// A SHA-256 digest (FIPS 180-4): 32 bytes.
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps 32 bytes. Precondition: `bytes.count == 32`.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == SHA256.byteCount, "a SHA-256 digest is 32 bytes")
        self.bytes = bytes
    }

    /// The digest as 64 lower-case hex characters.
    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }
}

/// Incremental SHA-256 (FIPS 180-4) through OpenSSL's EVP interface.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(header)
/// hasher.update(body)
/// let digest = hasher.finalize()
/// ```
/// A value is single-use: ``finalize()`` consumes it.
public struct SHA256: ~Copyable {
    /// Digest length in bytes: 32.
    public static let byteCount = 32

    private let context: OpaquePointer

    /// Starts a new hash. Traps only if OpenSSL cannot allocate a context.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("OpenSSL could not start a SHA-256 context")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Feeds raw bytes.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard buffer.count > 0 else { return }
        _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
    }

    /// Feeds bytes from an array or any contiguous collection.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// Feeds the UTF-8 bytes of a string.
    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Returns the digest and ends the hash.
    public consuming func finalize() -> SHA256Digest {
        var out = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        _ = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        return SHA256Digest(bytes: out)
    }

    /// The SHA-256 digest of `bytes` in one call.
    public static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest of raw bytes in one call.
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(buffer)
        return hasher.finalize()
    }

    /// The SHA-256 digest of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(text)
        return hasher.finalize()
    }
}
