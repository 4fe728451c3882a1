import Foundation
import MediaCrypto
import MediaStorage

/// The in-memory index of a disk store, per entry, with and without cache tags (docs/operations.md "Disk and
/// memory"): `MEDIABENCH_STORAGE=index`. Resident memory (`/proc/self/statm`) grows by what each entry's index item
/// holds (an upper estimate: what malloc keeps counts too); measured over 20,000 entries as the service stores them
/// (keys of 45–47 bytes, no fsync), with no tags, with 128 tags (the most kept per object) held as ``MediaStorage/CacheTagDigest``
/// values, and, for comparison, with the same 128 digests as the 64-character hex strings they were before.
enum IndexMemoryBenchmarks {
    static let count = 20_000

    static func run(root: String) throws {
        let untagged = try perEntry(root: "\(root)/index-untagged", tags: 0)
        let tagged = try perEntry(root: "\(root)/index-tagged", tags: 128)
        print(String(format: "disk index memory per entry: %.0f B without tags, %.0f B with 128 tags (%.0f B per tag); index units %d and %d",
                     untagged.bytes, tagged.bytes, (tagged.bytes - untagged.bytes) / 128, untagged.units, tagged.units))
        let strings = stringTagsPerEntry(tags: 128)
        print(String(format: "128 tags as hex strings (before CacheTagDigest): %.0f B per entry; as digests: %.0f B",
                     strings, Double(128 * CacheTagDigest.byteCount)))
    }

    static func heapInUse() -> Int { StorageBenchmarks.residentBytes() }

    /// Heap growth per entry over ``count`` entries stored into a new disk store, and one entry's index units.
    static func perEntry(root: String, tags: Int) throws -> (bytes: Double, units: Int) {
        let store = try DiskStore(directory: root, configuration: .init(byteLimit: 1 << 34, synchronizesWrites: false),
                                  integrityKey: try IntegrityKey.random())
        // Each entry is built, stored and dropped in turn, as the service does: what stays is the index's (each entry
        // with its own tag array, as each origin answer's parse gives, not one array shared copy-on-write).
        func entry(_ index: Int) -> StoredEntry {
            let digests = (0..<tags).map { CacheTagDigest(bytes: SHA256.hash(Array("product-\($0)-\(index)".utf8)).bytes)! }
            return StoredEntry(metadata: EntryMetadata(key: "http://127.0.0.1:8081/catalog/index-\(index).jpg", tier: "public",
                                                       route: "catalog", head: Array("HTTP/1.1 200 OK\r\n".utf8),
                                                       requestTime: 1_700_000_000, responseTime: 1_700_000_000,
                                                       expiresAt: 1_800_000_000, lifetime: 3_600, tags: digests),
                               body: [UInt8](repeating: 0x5a, count: 512))
        }
        let units = entry(0).metadata.indexUnits
        let before = heapInUse()
        for index in 0..<count {
            let item = entry(index)
            try store.store(item, for: item.metadata.key)
        }
        let after = heapInUse()
        precondition(store.totals.count == count, "stored \(store.totals.count)")
        withExtendedLifetime(store) {}
        return (Double(after - before) / Double(count), units)
    }

    /// Heap per entry of `tags` hex strings in an array, as the index held them before.
    static func stringTagsPerEntry(tags: Int) -> Double {
        var kept: [[String]] = []
        kept.reserveCapacity(count)
        let before = heapInUse()
        for entry in 0..<count {
            kept.append((0..<tags).map { SHA256.hash(Array("product-\($0)-\(entry)".utf8)).hex })
        }
        let after = heapInUse()
        withExtendedLifetime(kept) {}
        return Double(after - before) / Double(count)
    }
}
