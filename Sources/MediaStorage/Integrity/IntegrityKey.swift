import MediaCore
import MediaCrypto

/// The per-install secret that keys the integrity of `disk` files and the body digests of `store` audit
/// records (docs/storage.md, "Integrity"). The service keeps it in `<state>/keys/integrity.key` (32 random
/// bytes, mode 0600; MediaService's `IntegrityKeyFile`), and `mediactl audit` reads it from there.
///
/// Three keys are derived from the secret, one per use, so a value made for one use never stands for another:
///
/// | key | HMAC-SHA256(secret, label) with label | keys |
/// |---|---|---|
/// | header key | `mediactl-disk-header-v2` | a disk file's header tag (bytes [0, 20) ‖ metadata) |
/// | file key | `mediactl-disk-file-v2` | a disk file's file tag (bytes [0, 52+M) ‖ body digest) |
/// | body key | `mediactl-body-digest-v1` | ``bodyDigest(of:)``: HMAC-SHA256(body key, body), the audit `bodyDigest` |
///
/// The file tag covers the body through its digest, so a read computes one HMAC pass over the body, and the
/// digest a `store` record names is the one the file was written with. The body key is apart from the file
/// keys: a digest published in the audit log (an origin can choose a body) is never a tag.
///
/// Never printed (``description`` is `IntegrityKey(<redacted>)`), never `Codable`.
public final class IntegrityKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret's length in bytes: 32.
    public static let byteCount = 32

    let headerKey: HMACSHA256Key
    let fileKey: HMACSHA256Key
    let bodyKey: HMACSHA256Key
    let tagKey: HMACSHA256Key

    /// Derives the three keys from `secret`.
    /// - Throws: ``StorageError`` `invalid-configuration` (`an integrity key is 32 bytes, got 16`) for a
    ///   secret of another length; `crypto` when `secret` was destroyed.
    public init(secret: SymmetricKey) throws(StorageError) {
        guard secret.byteCount == Self.byteCount else {
            throw StorageError(.invalidConfiguration, "an integrity key is \(Self.byteCount) bytes, got \(secret.byteCount)")
        }
        do {
            func derived(_ label: String) throws -> HMACSHA256Key {
                var bytes = try HMACSHA256.authenticationCode(for: label, key: secret)
                defer { for index in bytes.indices { bytes[index] = 0 } }
                return try HMACSHA256Key(SymmetricKey(bytes: bytes))
            }
            headerKey = try derived("mediactl-disk-header-v2")
            fileKey = try derived("mediactl-disk-file-v2")
            bodyKey = try derived("mediactl-body-digest-v1")
            tagKey = try derived("mediactl-cache-tag-v1")
        } catch {
            throw StorageError(.crypto, "the integrity secret cannot be used: \(error)")
        }
    }

    /// A key from a fresh random secret that no file keeps: for tests, benchmarks and stores whose files
    /// need not outlive the process (a store opened later with another key drops them as corrupt).
    /// - Throws: ``StorageError`` `crypto` when the random generator fails.
    public static func random() throws(StorageError) -> IntegrityKey {
        let secret: SymmetricKey
        do { secret = try SymmetricKey(randomByteCount: byteCount) } catch {
            throw StorageError(.crypto, "the random generator failed: \(error)")
        }
        return try IntegrityKey(secret: secret)
    }

    /// The body digest: HMAC-SHA256(body key, `body`), 32 bytes. Hex, it is a `store` record's `bodyDigest`.
    public func bodyDigest(of body: UnsafeRawBufferPointer) -> [UInt8] { bodyKey.authenticationCode(for: body) }

    /// The body digest of `body` (bytes).
    public func bodyDigest(of body: [UInt8]) -> [UInt8] { body.withUnsafeBytes { bodyDigest(of: $0) } }

    /// The keyed digest of a cache tag (docs/policy-format.md, "Cache tags"): HMAC-SHA256(tag key, `tag`), 32 bytes
    /// (64 lower-case hex digits as text). What stored entries carry instead of the tag, and what purge records name:
    /// the same across restarts of one install, and not guessable from the log or the files alone.
    public func tagDigest(_ tag: String) -> CacheTagDigest {
        CacheTagDigest(bytes: Array(tag.utf8).withUnsafeBytes { tagKey.authenticationCode(for: $0) })!
    }

    public var description: String { "IntegrityKey(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
