import MediaCore
import MediaPolicy
import MediaStorage
import MediaTransform
import Synchronization

/// One tier's stores, variant index and counters.
///
/// Stores: `memory` holds entries whose decided class is `memory` (its evictions are audited);
/// `hot` holds copies of persistent entries for fast hits (a cache of the files, not audited);
/// `disk` and `sealed` hold the persistent classes the tier allows. Budgets come from the tier's
/// `memoryBytes` (on persistent tiers: ¼ memory, 1/16 the write-behind backlog, the rest hot) and `diskBytes`,
/// which also bounds the file stores' entry count: at most `diskBytes / 4096` (``fileBlockBytes``), so their
/// index memory (about 0.9 KB per entry) is at most about 22 % of `diskBytes` (docs/storage.md, "Index memory").
final class TierRuntime: Sendable {
    /// The smallest space a file takes on disk (one block of ext4 or XFS): the file stores hold at most
    /// `diskBytes / fileBlockBytes` entries.
    static let fileBlockBytes = 4_096

    let tier: Tier
    let memory: MemoryStore
    /// The in-memory copies of the file entries (hot copies and shared large entries); `nil` on tiers without files.
    let copies: FileCopies?
    /// The hot copies (``FileCopies/hot``).
    var hot: MemoryStore? { copies?.hot }
    let disk: DiskStore?
    let sealed: EncryptedDiskStore?
    let counters: TierCounters
    /// Variant group key → store keys; an entry that leaves a decided store (evicted, expired, corrupt,
    /// shredded) leaves the index at once, so unique URLs never grow it past what is stored.
    let responseIndex: StoredResponseIndex
    /// Source group → its derived images' store keys (``DerivedIndex``).
    let derivedIndex: DerivedIndex
    /// The tier's `variants` in MediaTransform's terms, or `nil` when the tier declares none.
    let variantDeclaration: VariantDeclaration?
    /// Seconds per derived image, queueing included (`mediactl_transform_seconds`).
    let transformTimes: DurationHistogram

    /// - Parameters:
    ///   - integrityKey: the install's key of the disk store's file tags (``IntegrityKeyFile``).
    ///   - barrier, observer: passed to the file stores (``MediaStorage/DurabilityBarrier``, crash tests).
    init(tier: Tier, counters: TierCounters, stateDirectory: String, integrityKey: IntegrityKey,
         synchronizesWrites: Bool, writesBehind: Bool = false,
         barrier: (any DurabilityBarrier)? = nil, observer: (any FileWriteObserver)? = nil,
         onEvent: @escaping StorageEventHandler) throws {
        self.tier = tier
        self.counters = counters
        responseIndex = StoredResponseIndex()
        derivedIndex = DerivedIndex()
        transformTimes = DurationHistogram()
        let persistent = tier.storage == .disk || tier.storage == .encryptedDisk
        // Budgets of 0 are valid policy (keep nothing there); stores need positive limits, so a
        // budget below 10 bytes gets 1-byte limits, which no entry fits.
        func limits(_ budget: Int) -> (bytes: Int, entry: Int) { (max(budget, 1), max(budget / 10, 1)) }
        // Write-behind backlog of the tier's file store: a sixteenth of its memory budget (at most 16 MiB), taken
        // out of the hot copies' share, so memory + hot + pending stay within `memoryBytes`. It only has to cover
        // bursts: a miss flood that outruns the disk fills it, and past it requests write their files themselves.
        let pendingBytes = persistent && writesBehind ? min(16 << 20, tier.memoryBytes / 16) : 0
        let memoryBudget = limits(persistent ? tier.memoryBytes / 4 : tier.memoryBytes)
        let hotBudget = limits(tier.memoryBytes - (persistent ? tier.memoryBytes / 4 : tier.memoryBytes) - pendingBytes)
        let diskBudget = limits(tier.diskBytes)
        let diskCount = max(1, tier.diskBytes / Self.fileBlockBytes)
        let index = responseIndex, derived = derivedIndex
        variantDeclaration = tier.variants.map { TierRuntime.declaration($0, animation: tier.animation) }
        // A hot copy may take a quarter of the hot budget (11 MiB of the default 64 MiB tier), not a tenth: a large
        // image read from its file is then kept once and every hit shares that one buffer (hardening item 3), where
        // each hit used to read and verify its own copy and a slow reader held it for its whole write.
        // Larger file entries are shared while a response holds them (``SharedEntries``).
        let copies = persistent ? try FileCopies(hotBytes: hotBudget.bytes) : nil
        let onEvent: StorageEventHandler = { event in
            if let key = event.storeKey {
                index.remove(key)
                derived.remove(key)
                // A file entry that left its store (evicted, failed write, shred) takes its hot copy along.
                if event.storageClass != .memory { copies?.remove(key) }
            }
            onEvent(event)
        }
        memory = try MemoryStore(configuration: .init(byteLimit: memoryBudget.bytes, entryByteLimit: memoryBudget.entry),
                                 onEvent: onEvent)
        self.copies = copies
        disk = tier.storage == .disk
            ? try DiskStore(directory: stateDirectory + "/disk/" + tier.name,
                            configuration: .init(byteLimit: diskBudget.bytes, entryByteLimit: diskBudget.entry,
                                                 countLimit: diskCount, synchronizesWrites: synchronizesWrites, writesBehind: writesBehind,
                                                 pendingByteLimit: pendingBytes),
                            integrityKey: integrityKey, barrier: barrier, observer: observer, onEvent: onEvent)
            : nil
        sealed = persistent
            ? try EncryptedDiskStore(directory: stateDirectory + "/sealed/" + tier.name,
                                     configuration: .init(byteLimit: diskBudget.bytes, entryByteLimit: diskBudget.entry,
                                                          countLimit: diskCount, synchronizesWrites: synchronizesWrites, writesBehind: writesBehind,
                                                          pendingByteLimit: pendingBytes),
                                     keyLifetime: Double(tier.keyLifetime), barrier: barrier, observer: observer, onEvent: onEvent)
            : nil
        for metadata in disk?.inventory() ?? [] { indexStoredResponse(metadata.key) }
    }

    /// A runtime for `tier` on `other`'s stores, indexes, counters and histogram: what a reload makes for a
    /// changed tier whose stores stay valid (``canShareStores(_:_:)``). Only the tier and its variant
    /// declaration are new.
    init(tier: Tier, sharing other: TierRuntime) {
        self.tier = tier
        counters = other.counters
        memory = other.memory
        copies = other.copies
        disk = other.disk
        sealed = other.sealed
        responseIndex = other.responseIndex
        derivedIndex = other.derivedIndex
        transformTimes = other.transformTimes
        variantDeclaration = tier.variants.map { TierRuntime.declaration($0, animation: tier.animation) }
    }

    /// Whether a runtime of `old` can serve `new` on the same stores: the stores' layout and budgets
    /// (`storage`, `memoryBytes`, `diskBytes`), the cache-key scope (`metadata`) and what decides whether and
    /// how a response was stored and whom it may be served to (`cache`, `partition`, `credentials`,
    /// `contentTypes`, `setCookie`) are unchanged. Limits that only shorten or shrink what may be kept
    /// (`maxTTL`, `maxObjectBytes`) are applied by removing what they now forbid.
    static func canShareStores(_ old: Tier, _ new: Tier) -> Bool {
        old.storage == new.storage && old.memoryBytes == new.memoryBytes && old.diskBytes == new.diskBytes
            && CacheKey.scope(of: old) == CacheKey.scope(of: new) && old.cache == new.cache
            && old.partition == new.partition && old.credentials == new.credentials
            && old.contentTypes == new.contentTypes && old.setCookie == new.setCookie
    }

    /// Every store that holds decided entries (not the hot copies).
    var decidedStores: [any MediaStoring] {
        var stores: [any MediaStoring] = [memory]
        if let disk { stores.append(disk) }
        if let sealed { stores.append(sealed) }
        return stores
    }

    /// The store of a decided storage class, or `nil` when this tier has none for it.
    func store(for storage: StorageClass) -> (any MediaStoring)? {
        switch storage {
        case .memory: return memory
        case .disk: return disk
        case .encryptedDisk: return sealed
        case .none: return nil
        }
    }

    /// The entry for `key`: its in-memory copy, then memory, disk, sealed. A file hit is kept as a hot copy, or,
    /// too large for one, shared while someone holds it, so concurrent readers of one large object share one read,
    /// one verification and one buffer (``FileCopies``).
    func entry(for key: String) -> StoredEntry? {
        if let entry = entryInMemory(for: key) { return entry }
        guard let copies else { return nil }
        for store in [disk as (any MediaStoring)?, sealed] {
            if let store, let entry = copies.read(key, from: { store.entry(for: key) }) { return entry }
        }
        return nil
    }

    /// The entry for `key` if it is in memory (its hot or shared copy, or the memory store); never reads a file.
    func entryInMemory(for key: String) -> StoredEntry? {
        if let copies, let entry = copies.entry(for: key) { return entry }
        return memory.entry(for: key)
    }

    /// Whether the tier keeps entries in files (disk or sealed), which ``entryInMemory(for:)`` does not read.
    var hasFileStores: Bool { disk != nil || sealed != nil }

    /// Stores `entry` in `store` (one of ``decidedStores``) under `key`, with `record` as in
    /// `MediaStoring.store(_:for:recordingFirst:)`, and keeps the hot copy in step: the old one goes, the
    /// new one (persistent classes) comes first, so a write-behind store that fails later removes it
    /// again (the event handler), and it goes again when `store` throws. Once stored, the copy is replaced again,
    /// so a concurrent read of the old file cannot leave the old body in memory.
    func store(_ entry: StoredEntry, in store: any MediaStoring, for key: String,
               recordingFirst record: () throws -> Void) throws {
        let keepsCopy = store !== memory
        if keepsCopy { copies?.replace(key, with: entry) } else { copies?.remove(key) }
        do {
            try store.store(entry, for: key, recordingFirst: record)
        } catch {
            copies?.remove(key)
            throw error
        }
        if keepsCopy { copies?.replace(key, with: entry) } else { copies?.remove(key) }
    }

    /// Removes `key` from every store; returns the metadata of the decided entry removed, if any.
    @discardableResult func remove(_ key: String) -> EntryMetadata? {
        var removed: EntryMetadata?
        for store in decidedStores { if let metadata = store.remove(key) { removed = metadata } }
        // After the files: a read that began before the removal either sees it coming or loses its copy here.
        copies?.remove(key)
        unindexStoredResponse(key)
        return removed
    }

    /// Removes every decided entry matching `predicate` (and its hot copy); returns their metadata.
    func removeAll(where predicate: (EntryMetadata) -> Bool) -> [EntryMetadata] {
        var removed: [EntryMetadata] = []
        for store in decidedStores { removed.append(contentsOf: store.removeAll(where: predicate)) }
        copies?.removeAll(where: predicate)
        for metadata in removed { unindexStoredResponse(metadata.key) }
        return removed
    }

    /// The primary key of `url` on this tier: scoped by its name and metadata rule (``CacheKey/primary(tier:url:)``,
    /// ``CacheKey/scope(of:)``). Every partition's stored responses of `url` are keyed under it.
    func primaryKey(url: String) -> String {
        CacheKey.primary(tier: CacheKey.scope(of: tier), url: url)
    }

    func storeKeys(group: String) -> [String] {
        responseIndex.groups.withLock { Array($0[group] ?? []) }.sorted()
    }

    /// ``storeKeys(group:)`` and the index generation they were read at (see ``generation``).
    func storeKeysWithGeneration(group: String) -> (keys: [String], generation: Int) {
        let (keys, generation) = responseIndex.groups.withLock { index in
            (Array(index[group] ?? []), responseIndex.generation.load(ordering: .relaxed))
        }
        return (keys.sorted(), generation)
    }

    /// The current generation of the stored-response index: equal to a value read earlier only when the
    /// index has not changed since.
    var generation: Int { responseIndex.generation.load(ordering: .acquiring) }

    /// Store keys of every group of `primary` (all partitions).
    func storeKeys(primary: String) -> [String] {
        let prefix = primary + String(CacheKey.separator)
        return responseIndex.groups.withLock { index in
            index.filter { $0.key.hasPrefix(prefix) }.flatMap(\.value)
        }.sorted()
    }

    func indexStoredResponse(_ storeKey: String) {
        responseIndex.add(storeKey)
        derivedIndex.add(storeKey)
    }

    func unindexStoredResponse(_ storeKey: String) {
        responseIndex.remove(storeKey)
        derivedIndex.remove(storeKey)
    }

    /// A policy's `variants` as MediaTransform validates requests against it.
    static func declaration(_ variants: Tier.Variants, animation: Tier.Animation? = nil) -> VariantDeclaration {
        VariantDeclaration(widths: variants.widths, heights: variants.heights,
                           formats: variants.formats.compactMap(OutputFormat.init(rawValue:)), maxDpr: variants.maxDpr,
                           quality: variants.quality, maxOutputPixels: variants.outputPixelCap,
                           maxAVIFWidth: variants.maxAVIFWidth, clientHints: variants.clientHints,
                           clientProfiles: variants.clientProfiles.mapValues { $0.compactMap(OutputFormat.init(rawValue:)) },
                           qualities: variants.qualities.map { qualities in
                               Dictionary(uniqueKeysWithValues: qualities.compactMap { name, value in
                                   OutputFormat(rawValue: name).map { ($0, value) }
                               })
                           },
                           avifEffort: variants.avifEffort,
                           animation: animation.map { AnimationBudget(maxFrames: $0.maxFrames, maxPixels: $0.maxPixels) })
    }
}
