import MediaCore
import MediaCrypto
import Synchronization

/// A cache partition identifier: the hex HMAC-SHA256 of a credential under the process key.
/// Safe to log, store and put in audit records.
public struct PartitionID: Hashable, Sendable, CustomStringConvertible {
    /// 64 lower-case hex digits.
    public let hex: String

    public init(hex: String) { self.hex = hex }

    public var description: String { hex }
}

/// Maps credentials to ``PartitionID``s with HMAC-SHA256 under a per-process random key, so the
/// raw token is never stored and partition ids cannot be linked across restarts.
///
/// The MAC input is `"mediactl-partition-v1\n" + token` (domain-separated from other uses of
/// the key). `description` shows neither the key nor any token.
public final class PartitionKeyer: Sendable, CustomStringConvertible {
    static let domain = Array("mediactl-partition-v1\n".utf8)

    private let key: SymmetricKey
    /// `key` prepared for the request path's MACs (``MediaCrypto/HMACSHA256Key``: its padded blocks hashed once);
    /// `nil` when `key` was destroyed before the keyer was made.
    private let prepared: HMACSHA256Key?
    private let computed = Atomic<Int>(0)
    /// The partitions of the credentials presented most recently (at most ``memoCapacity``, emptied when full), so a
    /// client's repeated requests cost a dictionary lookup instead of a parse and a MAC. Each is kept under the
    /// `Authorization` value it came in (``partition(forAuthorization:)``; `Bearer <token>` for a token given
    /// alone), and only once that value parsed as a bearer credential: an entry is found only with the credential
    /// itself, so how long a lookup takes says nothing about other clients. Held in process memory only, and emptied
    /// by ``destroyKey()``.
    private let memo = Mutex<[String: String]>([:])
    /// The most tokens ``memo`` holds.
    static let memoCapacity = 4096

    /// How many partitions this keyer has computed: one per admitted request that presents a credential to a
    /// partitioned tier (a test counts it to show a request is admitted once).
    public var partitionsComputed: Int { computed.load(ordering: .relaxed) }

    /// A keyer with a fresh 32-byte random key.
    /// - Throws: ``CryptoError`` (`openssl-failure`) when the CSPRNG fails.
    public convenience init() throws {
        self.init(key: try SymmetricKey(randomByteCount: 32))
    }

    /// A keyer over a given key (tests, or a key shared by workers of one process).
    public init(key: SymmetricKey) {
        self.key = key
        prepared = try? HMACSHA256Key(key)
    }

    /// The partition of `credential`.
    /// - Throws: ``CryptoError`` (`key-destroyed` after ``destroyKey()``).
    public func partition(for credential: BearerToken) throws -> PartitionID {
        PartitionID(hex: try partition(remembering: credential.authorizationValue) { credential })
    }

    /// The partition of the bearer credential in `value`, one `Authorization` field value as received, or `nil` when
    /// `value` is not a bearer credential (``BearerToken/parse(authorization:)`` refuses it) or the key is destroyed.
    /// A value seen recently is neither parsed nor MACed again.
    public func partition(forAuthorization value: String) -> String? {
        try? partition(remembering: value) { () throws(CredentialError) in try BearerToken.parse(authorization: value) }
    }

    /// The partition of the token `parse` gives, remembered under `value` (the `Authorization` value it is parsed from).
    private func partition(remembering value: String, _ parse: () throws(CredentialError) -> BearerToken) throws -> String {
        computed.add(1, ordering: .relaxed)
        guard let prepared, !key.isDestroyed, !prepared.isDestroyed else {
            throw CryptoError(.keyDestroyed, "the key was destroyed")
        }
        if let known = memo.withLock({ $0[value] }) { return known }
        let credential = try parse()
        var hasher = prepared.makeHasher()
        hasher.update(Self.domain)
        hasher.update(credential.token.utf8)
        let hex = Hex.encode(hasher.finalize())
        memo.withLock { memo in
            // Never kept once the key is gone (destroyKey empties the memo under this lock).
            guard !key.isDestroyed else { return }
            if memo.count >= Self.memoCapacity { memo.removeAll(keepingCapacity: true) }
            memo[value] = hex
        }
        return hex
    }

    /// Zeroes the key (shutdown, `purge --all`); later calls throw.
    public func destroyKey() {
        key.destroy()
        prepared?.destroy()
        memo.withLock { $0.removeAll() }
    }

    public var description: String { "PartitionKeyer(<redacted>)" }
}
