import COpenSSL
import Synchronization

/// An HMAC-SHA256 key (RFC 2104, FIPS 198-1) prepared once for many MACs: the SHA-256 states after the
/// key's inner and outer pad blocks. Each MAC then costs the message's blocks plus two (the inner and the
/// outer final), with no key schedule per call, and can be computed incrementally (``makeHasher()``), so a
/// file's header, metadata and body are authenticated in the one pass that reads them.
///
/// ```swift
/// let key = try HMACSHA256Key(SymmetricKey())
/// var hasher = key.makeHasher()
/// hasher.update(header)
/// hasher.update(body)
/// let tag = hasher.finalize()   // 32 bytes, equal to HMACSHA256.authenticationCode(for: header + body, key:)
/// ```
///
/// The two states are as secret as the key: they are wiped when the value goes, and ``description`` shows
/// only `HMACSHA256Key(<redacted>)`. The type is deliberately not `Codable`.
public final class HMACSHA256Key: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// SHA-256's block length in bytes: 64 (the pad length of RFC 2104 §2).
    static let blockCount = 64

    private nonisolated(unsafe) let inner: UnsafeMutablePointer<mediactl_sha256_ctx>
    private nonisolated(unsafe) let outer: UnsafeMutablePointer<mediactl_sha256_ctx>
    private let destroyed = Atomic<Bool>(false)

    /// Prepares `key` (any length: a key longer than 64 bytes is hashed first, RFC 2104 §2).
    /// - Throws: ``CryptoError/Code/keyDestroyed`` when `key` was destroyed.
    public init(_ key: SymmetricKey) throws {
        var block = try key.withUnsafeBytes { bytes -> [UInt8] in
            var block = bytes.count > Self.blockCount ? SHA256.hash(bytes).bytes : Array(bytes)
            block += [UInt8](repeating: 0, count: Self.blockCount - block.count)
            return block
        }
        inner = .allocate(capacity: 1)
        outer = .allocate(capacity: 1)
        guard mediactl_sha256_init(inner) == 1, mediactl_sha256_init(outer) == 1 else {
            fatalError("OpenSSL could not start a SHA-256 context")
        }
        var pad = [UInt8](repeating: 0, count: Self.blockCount)
        for index in 0..<Self.blockCount { pad[index] = block[index] ^ 0x36 }
        _ = pad.withUnsafeBytes { mediactl_sha256_update(inner, $0.baseAddress, $0.count) }
        for index in 0..<Self.blockCount { pad[index] = block[index] ^ 0x5c }
        _ = pad.withUnsafeBytes { mediactl_sha256_update(outer, $0.baseAddress, $0.count) }
        pad.withUnsafeMutableBytes { mediactl_openssl_cleanse($0.baseAddress, $0.count) }
        block.withUnsafeMutableBytes { mediactl_openssl_cleanse($0.baseAddress, $0.count) }
    }

    deinit {
        mediactl_openssl_cleanse(inner, MemoryLayout<mediactl_sha256_ctx>.size)
        mediactl_openssl_cleanse(outer, MemoryLayout<mediactl_sha256_ctx>.size)
        inner.deallocate()
        outer.deallocate()
    }

    /// A new incremental MAC under this key.
    /// Zeroes the prepared key now (its two midstates are as good as the key). Idempotent. A MAC made after it is not
    /// one of this key's: a caller that must refuse instead checks its ``SymmetricKey/isDestroyed`` first.
    public func destroy() {
        if destroyed.exchange(true, ordering: .acquiringAndReleasing) == false {
            mediactl_openssl_cleanse(inner, MemoryLayout<mediactl_sha256_ctx>.size)
            mediactl_openssl_cleanse(outer, MemoryLayout<mediactl_sha256_ctx>.size)
        }
    }

    /// Whether ``destroy()`` was called.
    public var isDestroyed: Bool { destroyed.load(ordering: .acquiring) }

    public func makeHasher() -> HMACSHA256Hasher { HMACSHA256Hasher(key: self) }

    /// A SHA-256 continuing from the inner pad state (the start of every MAC's inner hash).
    func resumingInner() -> SHA256 { SHA256(resuming: inner) }

    /// A SHA-256 continuing from the outer pad state (the start of every MAC's outer hash).
    func resumingOuter() -> SHA256 { SHA256(resuming: outer) }

    /// The HMAC-SHA256 of `message`: 32 bytes.
    public func authenticationCode(for message: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = makeHasher()
        hasher.update(message)
        return hasher.finalize()
    }

    /// The HMAC-SHA256 of `message` (bytes): 32 bytes.
    public func authenticationCode(for message: some Sequence<UInt8>) -> [UInt8] {
        var hasher = makeHasher()
        hasher.update(message)
        return hasher.finalize()
    }

    public var description: String { "HMACSHA256Key(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// One incremental HMAC-SHA256 under an ``HMACSHA256Key`` (``HMACSHA256Key/makeHasher()``): a ``SHA256`` resumed
/// from the key's inner pad state, then one from its outer state over the inner digest. Single-use: ``finalize()``
/// consumes it. Its states are wiped when they go.
public struct HMACSHA256Hasher: ~Copyable {
    private var inner: SHA256
    /// The key, whose outer state starts the outer hash in ``finalize()``.
    private let key: HMACSHA256Key

    init(key: HMACSHA256Key) {
        inner = key.resumingInner()
        self.key = key
    }

    /// Feeds raw bytes.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        inner.update(buffer)
    }

    /// Feeds bytes from an array or any contiguous collection.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        inner.update(bytes)
    }

    /// Returns the 32-byte MAC and ends the hasher.
    public consuming func finalize() -> [UInt8] {
        // The digest's own array, uniquely held once the digest value is dropped: wiped in place below.
        var innerDigest = inner.finalize().bytes
        var outer = key.resumingOuter()
        outer.update(innerDigest)
        innerDigest.withUnsafeMutableBytes { mediactl_openssl_cleanse($0.baseAddress, $0.count) }
        return outer.finalize().bytes
    }
}
