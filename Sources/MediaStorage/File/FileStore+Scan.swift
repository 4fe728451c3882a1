import Glibc

extension FileStore {
    /// What a startup scan does with each entry file.
    enum ScanMode {
        /// Verify header and metadata, rebuild the index (LRU order = modification time), evict to fit.
        case index
        /// Overwrite and unlink every file, reporting each as a shred with this reason.
        case shred(StorageEvent.Reason)
    }

    /// Walks `root/ab/cd/*` once. Leftover temp files are removed (shredded in `.shred` mode)
    /// without an event; symlinks, foreign names and defective files are removed and reported.
    /// Returns the events, which the caller emits.
    func scan(_ mode: ScanMode) -> [StorageEvent] {
        var events: [StorageEvent] = []
        var found: [(modified: Int64, key: String, item: Item, cost: Int)] = []
        for (first, isDirectory) in POSIX.list(rootFD) {
            guard let outer = openScanFolder(first, in: rootFD, isDirectory: isDirectory, mode: mode, events: &events) else { continue }
            for (second, isInnerDirectory) in POSIX.list(outer) {
                guard let inner = openScanFolder(second, in: outer, isDirectory: isInnerDirectory, mode: mode, events: &events) else {
                    continue
                }
                for (name, _) in POSIX.list(inner) {
                    scanFile(name, in: inner, mode: mode, events: &events, found: &found)
                }
                close(inner)
            }
            close(outer)
        }
        guard case .index = mode else { return events }
        found.sort { $0.modified < $1.modified }
        return state.withLock { state in
            for file in found {
                state.generation += 1
                var item = file.item
                item.generation = state.generation
                state.list.insert(file.key, item, cost: file.cost)
            }
            return events + evictToFit(&state)
        }
    }

    private static func isFanOutName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Opens a fan-out folder; a non-folder there is removed and reported, a foreign folder is left alone.
    private func openScanFolder(_ name: String, in parent: Int32, isDirectory: Bool?, mode: ScanMode,
                                events: inout [StorageEvent]) -> Int32? {
        if Self.isFanOutName(name), let fd = try? POSIX.openDirectory(name, in: parent, create: false, path: name) {
            return fd
        }
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return nil }
        let size: Int
        if case .shred = mode { size = POSIX.shred(name, in: parent) } else { size = Int(info.st_size); unlinkat(parent, name, 0) }
        let reason: StorageEvent.Reason = (info.st_mode & S_IFMT) == S_IFREG ? .malformed : .notRegularFile
        events.append(StorageEvent(.corrupt, storageClass, digest: name, bytes: size, metadata: nil, reason: reason))
        return nil
    }

    private func scanFile(_ name: String, in folder: Int32, mode: ScanMode, events: inout [StorageEvent],
                          found: inout [(modified: Int64, key: String, item: Item, cost: Int)]) {
        if name.contains(".tmp-") {
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
            let kind: StorageEvent.Kind = KeyDigest.isValid(name) ? .shred : .corrupt
            events.append(StorageEvent(kind, storageClass, digest: digest, bytes: size, metadata: nil,
                                       reason: kind == .shred ? reason : .malformed))
            return
        }
        let result: Result<EntryMetadata, FileDefect> = KeyDigest.isValid(name)
            ? format.readMetadata(from: fd, size: info.size, name: name) ?? .failure(FileDefect(.malformed))
            : .failure(FileDefect(.malformed))
        close(fd)
        switch result {
        case .success(let metadata):
            found.append((info.modified, metadata.key, Item(digest: digest, metadata: metadata, generation: 0), info.size))
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
                unlinkFile(victim.value.digest)
                events.append(StorageEvent(.shred, storageClass, digest: victim.value.digest, bytes: victim.cost,
                                           metadata: victim.value.metadata, reason: .stop))
            }
            return events
        }
    }
}
