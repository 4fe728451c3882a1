/// What a reconciliation remembers of the keys that can be the source of a later variant: for every key
/// whose last record is a `store` or `update`, that record's storage class, tier, partition and `seq`
/// (docs/audit-format.md, "Variants").
///
/// Fed every record in chain order (``note(_:)``); asked, for a variant's `store` record, about its
/// `derivedFrom` key *before* that record is noted (``source(of:)``).
///
/// Bounded: a key leaves when a removal record (`evict`, `expire`, `purge`, `invalidate`, `shred`) names
/// it, and the `memory` (and `none`) ones all leave at a `start` or `stop` record, since memory objects do
/// not outlive their process. So the map holds the objects live at that point of the log, which the
/// tiers' `diskBytes` and memory budgets bound, not every key the log has seen. A removed key stays
/// findable among the last ``removedWindow`` removals, so a variant whose source was evicted while it was
/// being derived (the `evict` written just before the variant's `store`) still finds it.
///
/// Memory: 24 bytes per live key (a 64-bit key prefix and two packed words) in a `Dictionary` kept at most
/// 3/4 full and grown by doubling, ≈ 32–64 bytes per key and up to 1.5× that while it grows (measured:
/// +18.6 MB for 250,000 live keys, +38.5 MB for 625,000); plus at most ``removedWindow`` removed keys
/// (≈ 1 MB).
/// Keys and partitions are SHA-256 / HMAC-SHA256 digests and are compared by their first 64 bits: a false
/// match needs two different digests that share them (≈ live keys / 2⁶⁴ per look-up). Tier names are
/// interned (at most 65,535 distinct names; more share the last index).
struct VariantSources: Sendable {
    /// A source key's last `store` or `update` record, as the variant checks need it.
    struct Source: Hashable, Sendable {
        /// Its storage class (`none` when the record has none).
        var storage: AuditStorage
        /// Its tier name, or `nil`.
        var tier: String?
        /// The first 64 bits of its partition digest, or `nil` for a shared record.
        var partitionPrefix: UInt64?
        /// The record's `seq`.
        var seq: Int
    }

    /// Removed keys kept findable: the most recent removals.
    static let removedWindow = 16_384

    /// Two words per key: the partition prefix, and `seq` << 19 | tier index + 1 << 3 | has-partition << 2
    /// | storage width (the tier index 0 means no tier).
    private struct Packed: Sendable {
        var partition: UInt64
        var bits: UInt64

        var storage: AuditStorage {
            switch bits & 0b11 {
            case 3: return .disk
            case 2: return .encryptedDisk
            case 1: return .memory
            default: return .none
            }
        }
        var hasPartition: Bool { bits & 0b100 != 0 }
        var tierIndex: Int { Int((bits >> 3) & 0xffff) }
        var seq: Int { Int(bits >> 19) }
    }

    private var live: [UInt64: Packed] = [:]
    private var removed: [UInt64: (source: Packed, ordinal: Int)] = [:]
    private var removedOrder: [UInt64] = []
    private var removals = 0
    private var tierNames: [String] = []
    private var tierIndexes: [String: Int] = [:]

    /// Keys currently remembered as live (for tests and measurements).
    var liveCount: Int { live.count }

    /// Folds one record in: a `store`/`update` with a key makes it the key's source record, a removal
    /// moves the key to the removed window, `start`/`stop` forget the memory (and `none`) sources.
    mutating func note(_ record: AuditRecord) {
        switch record.event {
        case .store, .update:
            guard let key = record.key else { return }
            live[Self.prefix(key)] = pack(record)
        case .start, .stop:
            live = live.filter { $0.value.storage > .memory }
            removed = removed.filter { $0.value.source.storage > .memory }
        default:
            guard record.event.removesObject, let key = record.key.map(Self.prefix),
                  let source = live.removeValue(forKey: key)
            else { return }
            remember(removed: key, source)
        }
    }

    /// The last `store`/`update` of `key` noted so far, live or among the recent removals; `nil` when none.
    func source(of key: AuditDigest) -> Source? {
        let prefix = Self.prefix(key)
        guard let packed = live[prefix] ?? removed[prefix]?.source else { return nil }
        let tier = packed.tierIndex == 0 ? nil : tierNames[packed.tierIndex - 1]
        return Source(
            storage: packed.storage, tier: tier, partitionPrefix: packed.hasPartition ? packed.partition : nil,
            seq: packed.seq)
    }

    /// The first 64 bits of a digest (its first 16 hex digits).
    static func prefix(_ digest: AuditDigest) -> UInt64 {
        var value: UInt64 = 0
        var hex = digest.hex
        hex.withUTF8 { bytes in
            for byte in bytes.prefix(16) {
                value = value << 4 | UInt64(byte <= 0x39 ? byte - 0x30 : byte - 0x61 + 10)
            }
        }
        return value
    }

    private mutating func pack(_ record: AuditRecord) -> Packed {
        var bits = UInt64((record.storage ?? AuditStorage.none).width)
        if record.partition != nil { bits |= 0b100 }
        if let tier = record.tier?.rawValue { bits |= UInt64(intern(tier) + 1) << 3 }
        bits |= UInt64(min(record.seq, (1 << 45) - 1)) << 19
        return Packed(partition: record.partition.map(Self.prefix) ?? 0, bits: bits)
    }

    /// The tier's index (0-based, at most 65,534).
    private mutating func intern(_ tier: String) -> Int {
        if let index = tierIndexes[tier] { return index }
        guard tierNames.count < 0xfffe else { return tierNames.count - 1 }
        tierNames.append(tier)
        tierIndexes[tier] = tierNames.count - 1
        return tierNames.count - 1
    }

    private mutating func remember(removed key: UInt64, _ source: Packed) {
        let slot = removals % Self.removedWindow
        if removedOrder.count < Self.removedWindow {
            removedOrder.append(key)
        } else {
            let oldest = removedOrder[slot]
            if removed[oldest]?.ordinal == removals - Self.removedWindow { removed[oldest] = nil }
            removedOrder[slot] = key
        }
        removed[key] = (source, removals)
        removals += 1
    }
}
