import MediaCore
import MediaCrypto
import Synchronization

/// The data keys of an ``EncryptedDiskStore`` (crypto-shredding): one for each partition (a credential's or a signed
/// URL subject's keyed digest) and one for the tier's objects without a partition. Each key is 32 random bytes held
/// only in this process's memory, with a random 8-byte id that the sealed file's header carries and the `store`
/// record names (`keyId`).
///
/// - Purging a partition destroys its keys first (``destroy(partition:)``): its files are unreadable from that
///   moment, even if deleting them fails or the process dies before it does.
/// - Rotation: a key seals at most ``maximumSeals`` objects (2^32, NIST SP 800-38D §8.3, as for random 96-bit nonces)
///   and is used for sealing for at most ``lifetime`` seconds; then the partition gets a new key. Keys it replaced
///   still open their objects until the partition is purged or the store stops.
final class DataKeyring: Sendable {
    /// One data key.
    final class DataKey: Sendable {
        /// The id in the file header and the audit log: 8 random bytes.
        let id: [UInt8]
        let key: SymmetricKey
        let nonces: NonceSequence
        /// When it was made, seconds since 1970.
        let created: Double
        /// Objects sealed with it.
        let seals = Atomic<UInt64>(0)

        init(key: SymmetricKey? = nil, created: Double) throws {
            id = try SecureRandom.bytes(count: 8)
            self.key = try key ?? SymmetricKey()
            nonces = try NonceSequence()
            self.created = created
        }

        var hexID: String { Hex.encode(id) }
    }

    /// Objects one key seals at most: 2^32.
    static let maximumSeals: UInt64 = 1 << 32

    /// Seconds a key seals for.
    let lifetime: Double
    let clock: @Sendable () -> Double
    private struct State {
        /// The key that seals each partition's objects now (`""`: objects without a partition).
        var current: [String: DataKey] = [:]
        /// Every live key by id, and the partition it belongs to.
        var byID: [[UInt8]: (partition: String, key: DataKey)] = [:]
        var stopped = false
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - unpartitioned: the key of objects without a partition (tests pass one); `nil`: a random one.
    ///   - lifetime: seconds a key seals for.
    ///   - clock: seconds since 1970.
    init(unpartitioned: SymmetricKey? = nil, lifetime: Double, clock: @escaping @Sendable () -> Double) throws {
        self.lifetime = lifetime
        self.clock = clock
        if let unpartitioned {
            let key = try DataKey(key: unpartitioned, created: clock())
            state.withLock {
                $0.current[""] = key
                $0.byID[key.id] = ("", key)
            }
        }
    }

    /// The key that seals `partition`'s objects now (`nil`: objects without one), made, or rotated when it sealed
    /// ``maximumSeals`` objects or is ``lifetime`` seconds old; `counting` counts one seal. `nil` once the store stopped.
    /// - Throws: ``MediaCrypto/CryptoError`` when no random key can be made.
    func current(partition: String?, counting: Bool) throws -> DataKey? {
        let name = partition ?? ""
        let now = clock()
        return try state.withLock { state throws -> DataKey? in
            guard !state.stopped else { return nil }
            if let key = state.current[name], !key.key.isDestroyed, now - key.created < lifetime,
               key.seals.load(ordering: .relaxed) < Self.maximumSeals {
                if counting { key.seals.add(1, ordering: .relaxed) }
                return key
            }
            let key = try DataKey(created: now)
            if counting { key.seals.store(1, ordering: .relaxed) }
            state.current[name] = key
            state.byID[key.id] = (name, key)
            return key
        }
    }

    /// The live key with id `id`, or `nil` (destroyed, or never this process's).
    func key(id: [UInt8]) -> DataKey? {
        state.withLock { $0.byID[id]?.key }
    }

    /// The ids (hex) of `partition`'s live keys, oldest first.
    func ids(partition: String) -> [String] {
        state.withLock { state in
            state.byID.values.filter { $0.partition == partition }.map(\.key).sorted { $0.created < $1.created }.map(\.hexID)
        }
    }

    /// Destroys every key of `partition` (zeroed in memory) and returns their ids, hex, oldest first.
    func destroy(partition: String) -> [String] {
        state.withLock { state in
            let keys = state.byID.filter { $0.value.partition == partition }.map(\.value.key).sorted { $0.created < $1.created }
            for key in keys {
                key.key.destroy()
                state.byID[key.id] = nil
            }
            state.current[partition] = nil
            return keys.map(\.hexID)
        }
    }

    /// Destroys every key; later seals get none.
    func destroyAll() {
        state.withLock { state in
            for (_, entry) in state.byID { entry.key.key.destroy() }
            state.byID = [:]
            state.current = [:]
            state.stopped = true
        }
    }
}
