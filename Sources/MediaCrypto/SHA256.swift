import COpenSSL
import MediaCore

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

/// Incremental SHA-256 (FIPS 180-4) through OpenSSL's `SHA256_*` block functions (the same assembly as EVP,
/// without EVP's per-context provider fetch).
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(header)
/// hasher.update(body)
/// let digest = hasher.finalize()
/// ```
/// A value is single-use: ``finalize()`` consumes it. The one-shot ``hash(_:)-(UnsafeRawBufferPointer)`` forms
/// hash on the stack without allocating a context.
public struct SHA256: ~Copyable {
    /// Digest length in bytes: 32.
    public static let byteCount = 32

    private let context: UnsafeMutablePointer<mediactl_sha256_ctx>

    /// Starts a new hash. Traps only if OpenSSL refuses to initialise the context (it never does).
    public init() {
        context = .allocate(capacity: 1)
        guard mediactl_sha256_init(context) == 1 else { fatalError("OpenSSL could not start a SHA-256 context") }
    }

    /// A hash that continues from `state` (a copy of it: an HMAC key's prepared pad state).
    init(resuming state: UnsafePointer<mediactl_sha256_ctx>) {
        context = .allocate(capacity: 1)
        context.initialize(to: state.pointee)
    }

    deinit {
        mediactl_openssl_cleanse(context, MemoryLayout<mediactl_sha256_ctx>.size)
        context.deallocate()
    }

    /// Feeds raw bytes.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard buffer.count > 0 else { return }
        _ = mediactl_sha256_update(context, buffer.baseAddress, buffer.count)
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
        let out = [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { buffer, count in
            _ = mediactl_sha256_final(context, buffer.baseAddress)
            count = SHA256.byteCount
        }
        return SHA256Digest(bytes: out)
    }

    /// The SHA-256 digest of `bytes` in one call.
    public static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { hash($0) }
    }

    /// The SHA-256 digest of raw bytes in one call (no heap context).
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> SHA256Digest {
        let out = [UInt8](unsafeUninitializedCapacity: byteCount) { digest, count in
            mediactl_sha256_oneshot(buffer.baseAddress, buffer.count, digest.baseAddress)
            count = byteCount
        }
        return SHA256Digest(bytes: out)
    }

    /// The SHA-256 digest of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> SHA256Digest {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}
