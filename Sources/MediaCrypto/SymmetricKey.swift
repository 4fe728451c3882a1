import COpenSSL
import Synchronization

/// Secret key material that zeroes itself and can never be printed, logged or encoded.
///
/// The bytes live in one heap allocation that is wiped with `OPENSSL_cleanse` on ``destroy()``
/// or when the last reference goes. `description`, `debugDescription` and reflection (`dump`,
/// `Mirror`) show only `SymmetricKey(<redacted>, N bytes)`; the type is deliberately not
/// `Codable`. After ``destroy()``, every use throws ``CryptoError/Code/keyDestroyed``.
public final class SymmetricKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Key length in bytes.
    public let byteCount: Int
    private nonisolated(unsafe) let storage: UnsafeMutableRawBufferPointer
    private let destroyed = Atomic<Bool>(false)

    /// A new random key from OpenSSL's CSPRNG.
    /// - Parameter byteCount: key length in bytes. Default: 32 (AES-256, HMAC-SHA256).
    /// - Throws: ``CryptoError/Code/openSSLFailure`` when the CSPRNG fails.
    public init(randomByteCount byteCount: Int = 32) throws {
        precondition(byteCount > 0)
        self.byteCount = byteCount
        storage = .allocate(byteCount: byteCount, alignment: 16)
        guard RAND_bytes(storage.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(byteCount)) == 1 else {
            mediactl_openssl_cleanse(storage.baseAddress, byteCount)
            storage.deallocate()
            throw CryptoError(.openSSLFailure, "RAND_bytes failed")
        }
    }

    /// A key holding a copy of `bytes` (for known-answer tests and derived keys).
    /// The caller should wipe its own copy.
    public init(bytes: some Sequence<UInt8>) {
        let copy = Array(bytes)
        precondition(!copy.isEmpty, "a key has at least one byte")
        byteCount = copy.count
        storage = .allocate(byteCount: copy.count, alignment: 16)
        storage.copyBytes(from: copy)
    }

    deinit {
        mediactl_openssl_cleanse(storage.baseAddress, byteCount)
        storage.deallocate()
    }

    /// Zeroes the key now. Idempotent. Later uses throw ``CryptoError/Code/keyDestroyed``.
    public func destroy() {
        if destroyed.exchange(true, ordering: .acquiringAndReleasing) == false {
            mediactl_openssl_cleanse(storage.baseAddress, byteCount)
        }
    }

    /// Whether ``destroy()`` was called.
    public var isDestroyed: Bool { destroyed.load(ordering: .acquiring) }

    /// Calls `body` with the key bytes. The pointer must not escape `body`.
    /// - Throws: ``CryptoError/Code/keyDestroyed`` after ``destroy()``, or what `body` throws.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard !isDestroyed else { throw CryptoError(.keyDestroyed, "the key was destroyed") }
        return try body(UnsafeRawBufferPointer(storage))
    }

    public var description: String { "SymmetricKey(<redacted>, \(byteCount) bytes)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["byteCount": byteCount]) }
}
