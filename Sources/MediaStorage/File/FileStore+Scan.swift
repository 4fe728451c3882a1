import Dispatch
import Glibc
import Synchronization

extension FileStore {
    /// What a startup scan does with each entry file.
    enum ScanMode {
        /// Verify header and metadata, rebuild the index (LRU order = modification time), evict to fit.
        case index
        /// Overwrite and unlink every file, reporting each as a shred with this reason.
        case shred(StorageEvent.Reason)
    }

    typealias Found = (modified: Int64, key: String, item: Item, cost: Int)

    /// Walks `root/ab/cd/*` once, on up to ``scanThreads`` threads (top-level folders split
    /// between them). Leftover temp files are removed (shredded in `.shred` mode) without an
    /// event; symlinks, foreign names and defective files are removed and reported. Returns the
    /// events (in a deterministic order), which the caller emits.
    func scan(_ mode: ScanMode) -> [StorageEvent] {
        let topLevel = POSIX.withListing(".", in: rootFD) { _, names in names } ?? []
        let workers = topLevel.count >= 16 ? max(1, scanThreads) : 1
        let results = Mutex([[StorageEvent]](repeating: [], count: workers))
        let files = Mutex([[Found]](repeating: [], count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var events: [StorageEvent] = []
            var found: [Found] = []
            for index in stride(from: worker, to: topLevel.count, by: workers) {
                scanFolder(topLevel[index], in: rootFD, depth: 0, mode: mode, events: &events, found: &found)
            }
            results.withLock { $0[worker] = events }
            files.withLock { $0[worker] = found }
        }
        let events = results.withLock { $0.flatMap { $0 } }
        guard case .index = mode else { return events }
        let found = files.withLock { $0.flatMap { $0 } }
        var order = [(modified: Int64, index: Int)]()
        order.reserveCapacity(found.count)
        for index in found.indices { order.append((found[index].modified, index)) }
        order.sort { $0.modified < $1.modified }
        return state.withLock { state in
            state.list.reserveCapacity(found.count)
            for (_, index) in order {
                state.generation += 1
                var item = found[index].item
                item.generation = state.generation
                state.list.insert(found[index].key, item, cost: found[index].cost, weight: item.metadata.indexUnits)
            }
            return events + evictToFit(&state)
        }
    }

    private static func isFanOutName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Scans a fan-out folder (`depth` 0: `ab`, 1: `ab/cd`), or removes what stands in its place.
    private func scanFolder(_ entry: (name: String, isDirectory: Bool?), in parent: Int32, depth: Int, mode: ScanMode,
                            events: inout [StorageEvent], found: inout [Found]) {
        let listed: Bool? = Self.isFanOutName(entry.name) && entry.isDirectory != false
            ? POSIX.withListing(entry.name, in: parent) { folder, names -> Bool in
                for child in names {
                    if depth == 0 {
                        scanFolder(child, in: folder, depth: 1, mode: mode, events: &events, found: &found)
                    } else {
                        scanFile(child.name, in: folder, mode: mode, events: &events, found: &found)
                    }
                }
                return true
            }
            : nil
        if listed == nil { removeStray(entry.name, in: parent, mode: mode, events: &events) }
    }

    /// Removes and reports a non-folder where a fan-out folder belongs; a foreign folder is left alone.
    private func removeStray(_ name: String, in parent: Int32, mode: ScanMode, events: inout [StorageEvent]) {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return }
        let size: Int
        if case .shred = mode { size = POSIX.shred(name, in: parent) } else { size = Int(info.st_size); unlinkat(parent, name, 0) }
        let reason: StorageEvent.Reason = (info.st_mode & S_IFMT) == S_IFREG ? .malformed : .notRegularFile
        events.append(StorageEvent(.corrupt, storageClass, digest: name, bytes: size, metadata: nil, reason: reason))
    }

    /// Whether `name` is a leftover temp file: `<64-hex>.tmp-<16-hex>`.
    private static func isTemporaryName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        return utf8.count == 85 && utf8[64..<69].elementsEqual(".tmp-".utf8)
    }

    private func scanFile(_ name: String, in folder: Int32, mode: ScanMode, events: inout [StorageEvent],
                          found: inout [Found]) {
        let isDigest = KeyDigest.isValid(name)
        if !isDigest, Self.isTemporaryName(name) {
            if case .shred = mode { POSIX.shred(name, in: folder) } else { unlinkat(folder, name, 0) }
            return
        }
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP {
                unlinkat(folder, name, 0)
                events.append(StorageEvent(.corrupt, storageClass, digest: name, bytes: 0, metadata: nil, reason: .notRegularFile))
            }
            return
        }
        guard let info = POSIX.status(fd), info.isRegular else {
            close(fd)
            return
        }
        let digest = name
        if case .shred(let reason) = mode {
            close(fd)
            let size = POSIX.shred(name, in: folder)
            let kind: StorageEvent.Kind = isDigest ? .shred : .corrupt
            events.append(StorageEvent(kind, storageClass, digest: digest, bytes: size, metadata: nil,
                                       reason: kind == .shred ? reason : .malformed))
            return
        }
        let result: Result<EntryMetadata, FileDefect> = isDigest
            ? format.readMetadata(from: fd, size: info.size, name: name) ?? .failure(FileDefect(.malformed))
            : .failure(FileDefect(.malformed))
        close(fd)
        switch result {
        case .success(let metadata):
            found.append((info.modified, metadata.key, Item(digest: digest, metadata: metadata.indexed, generation: 0), info.size))
        case .failure(let defect):
            unlinkat(folder, name, 0)
            events.append(StorageEvent(.corrupt, storageClass, digest: digest, bytes: info.size, metadata: nil, reason: defect.reason))
        }
    }

    /// Marks the store stopped and unlinks every file, reporting each as a shred with reason `stop`.
    func stopAndRemoveAll() -> [StorageEvent] {
        state.withLock { state in
            state.stopped = true
            var events: [StorageEvent] = []
            while let victim = state.list.popLeastRecent() {
                dropped(victim.value, from: &state)
                events.append(StorageEvent(.shred, storageClass, digest: victim.value.digest, bytes: victim.cost,
                                           metadata: victim.value.metadata, reason: .stop))
            }
            return events
        }
    }
}
