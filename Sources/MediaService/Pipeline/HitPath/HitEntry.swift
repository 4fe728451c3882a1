import HTTPCaching
import MediaStorage
import Synchronization

/// What the service keeps with one stored entry (``MediaStorage/StoredEntry/decoded(as:_:)``): the
/// head decoded once, and the prepared memory-hit answer built on the first fast hit.
///
/// A new entry (a new store, a 304 update, a refresh) starts with neither, so a prepared answer never
/// outlives the head and body it was built from.
final class HitEntry: Sendable {
    let decoded: DecodedHead
    /// The stored head bytes it was decoded from (the entry's own buffer, shared).
    let headBytes: [UInt8]
    /// The prepared answer, retained once set (released with the entry).
    private let preparedSlot = Atomic<Unmanaged<PreparedHit>?>(nil)

    init(_ decoded: DecodedHead, headBytes: [UInt8]) {
        self.decoded = decoded
        self.headBytes = headBytes
    }

    /// Whether `head` is the very buffer this was decoded from (an O(1) identity check: a buffer this
    /// object keeps alive cannot be reused for other bytes, so equal addresses mean equal bytes).
    func isDecoded(from head: [UInt8]) -> Bool {
        head.count == headBytes.count && !head.isEmpty
            && head.withUnsafeBufferPointer { $0.baseAddress } == headBytes.withUnsafeBufferPointer { $0.baseAddress }
    }

    deinit {
        preparedSlot.load(ordering: .acquiring)?.release()
    }

    /// The decoded head of `entry`, kept with it; `nil` when the head bytes do not decode.
    ///
    /// When the entry's slot already holds a bare ``DecodedHead`` (kept there by other code), that is
    /// returned without a ``HitEntry``: callers then serve through the full path.
    static func of(_ entry: StoredEntry) -> (head: DecodedHead, hit: HitEntry?)? {
        if let hit = entry.decoded(as: HitEntry.self, {
            let head = entry.metadata.head
            return DecodedHead(head).map { HitEntry($0, headBytes: head) }
        }) {
            return (hit.decoded, hit)
        }
        if let head = entry.decoded(as: DecodedHead.self, { nil }) { return (head, nil) }
        return DecodedHead(entry.metadata.head).map { ($0, nil) }
    }

    /// The prepared answer for `key` (tier and versioning), built once with `make`. A racing thread
    /// may build one too; the first kept wins. A prepared answer for another key is built, not kept.
    func prepared(for key: PreparedHit.Key, _ make: () -> PreparedHit) -> PreparedHit {
        if let existing = preparedSlot.load(ordering: .acquiring)?.takeUnretainedValue(), existing.key == key {
            return existing
        }
        let made = make()
        let retained = Unmanaged.passRetained(made)
        let (exchanged, original) = preparedSlot.compareExchange(expected: nil, desired: retained,
                                                                 ordering: .acquiringAndReleasing)
        if exchanged { return made }
        retained.release()
        if let kept = original?.takeUnretainedValue(), kept.key == key { return kept }
        return made
    }
}
