import Glibc
import MediaCore
import MediaCrypto

extension FileStore {
    func entry(for key: String) -> StoredEntry? {
        guard let item = state.withLock({ $0.stopped ? nil : $0.list.touch(key) }) else { return nil }
        if let pending = item.pending { return pending.entry }
        let result: Result<StoredEntry, FileDefect>
        do {
            result = try withFolder(of: item.digest, create: false) { folder in
                let fd = openat(folder, item.digest, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                guard fd >= 0 else {
                    return .failure(FileDefect(errno == ELOOP ? .notRegularFile : .missing))
                }
                defer { close(fd) }
                guard let info = POSIX.status(fd), info.isRegular else { return .failure(FileDefect(.notRegularFile)) }
                return format.read(from: fd, size: info.size, name: item.digest)
            } ?? .failure(FileDefect(.missing))
        } catch {
            result = .failure(FileDefect(.notRegularFile))
        }
        switch result {
        case .success(let entry) where entry.metadata.key == key:
            return entry
        case .success:
            discard(key, item, reason: .malformed)
        case .failure(let defect):
            discard(key, item, reason: defect.reason)
        }
        return nil
    }

    /// Removes a defective file if the index still points at the version that was read, and reports it.
    private func discard(_ key: String, _ item: Item, reason: StorageEvent.Reason) {
        state.withLock { state in
            guard let current = state.list.peek(key), current.generation == item.generation,
                  let (_, cost) = remove(key, from: &state) else { return }
            onEvent(StorageEvent(.corrupt, storageClass, digest: item.digest, bytes: cost, metadata: item.metadata, reason: reason))
        }
    }

    /// Stores `entry`; `record` runs under the lock right before the entry is indexed (and always before its
    /// file is renamed into place, which waits for the record to be durable: ``DurabilityBarrier``). The
    /// evictions the insert causes are reported under the same lock, after `record`: whoever writes an audit
    /// log from both sees each key's changes in the order the index made them.
    ///
    /// Writing synchronously (no write-behind, or past ``pendingByteLimit``): the temp file is written and
    /// fsynced, the entry recorded and indexed (served from memory), the barrier waited for, the file renamed
    /// into place and its folder fsynced, all before this returns. A barrier or rename failure after the record
    /// drops the entry and throws (the caller audits the removal).
    func store(_ entry: StoredEntry, for key: String, recordingFirst record: () throws -> Void = {}) throws {
        var metadata = entry.metadata
        metadata.key = key
        metadata.storageClass = storageClass
        metadata.bodyByteCount = entry.body.count
        let encoded = MetadataCoding.encode(metadata)
        let size = format.fileSize(metadataCount: encoded.count, bodyCount: entry.body.count)
        let cap = min(entryByteLimit, byteLimit)
        guard size <= cap else {
            throw StorageError(.entryTooLarge, "\(storageClass) entry of \(size) bytes exceeds the per-entry cap of \(cap) bytes")
        }
        if state.withLock({ $0.stopped }) { throw StorageError(.stopped, "the \(storageClass) store was stopped") }
        let digest = KeyDigest.hex(of: key)
        var stored = entry
        stored.metadata = metadata
        if writer != nil,
           try storeBehind(Pending(entry: stored, encodedMetadata: encoded, size: size), key: key, digest: digest,
                           recordingFirst: record) {
            return
        }
        let pending = Pending(entry: stored, encodedMetadata: encoded, size: size, counted: false)
        try withFolder(of: digest, create: true) { folder in
            let temporary = try writeTemporary(metadata: encoded, entry: stored, digest: digest, in: folder)
            let version: (generation: UInt64, mark: Int?)
            do {
                version = try state.withLock { state in
                    guard !state.stopped else { throw StorageError(.stopped, "the \(storageClass) store was stopped") }
                    try record()
                    return indexPending(pending, key: key, digest: digest, state: &state)
                }
            } catch {
                unlinkat(folder, temporary, 0)
                throw error
            }
            do {
                try place(temporary, in: folder, key: key, digest: digest, generation: version.generation, mark: version.mark)
            } catch {
                // Recorded but not placed: the entry goes (an earlier version's file with it).
                state.withLock { state in
                    if let latest = state.list.peek(key), latest.generation == version.generation { remove(key, from: &state) }
                }
                throw error
            }
        }
    }

    /// Writes (and with `synchronizes`, fsyncs) a new temporary file in `folder`; returns its name.
    /// - Throws: ``StorageError`` `io`; nothing is left behind then.
    func writeTemporary(metadata: [UInt8], entry: StoredEntry, digest: String, in folder: Int32) throws -> String {
        let finalPath = path(of: digest)
        let temporary = "\(digest).tmp-\(Hex.encode(try SecureRandom.bytes(count: 8)))"
        reach(.writeTemporary, digest)
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIX.failure("open", finalPath + ".tmp") }
        do {
            try format.write(metadata: metadata, entry: entry, name: digest, to: fd, path: finalPath)
            if synchronizes {
                reach(.syncTemporary, digest)
                if fsync(fd) != 0 { throw POSIX.failure("fsync", finalPath) }
            }
            close(fd)
        } catch {
            close(fd)
            unlinkat(folder, temporary, 0)
            throw error
        }
        return temporary
    }

    /// Evicts least recently used entries until the total fits ``byteLimit`` and the index units
    /// (``EntryMetadata/indexUnits``: one per entry, one more per KiB of its cache tag digests) fit ``countLimit``.
    /// Call under the lock.
    func evictToFit(_ state: inout State) -> [StorageEvent] {
        var events: [StorageEvent] = []
        while state.list.totalCost > byteLimit || state.list.totalWeight > countLimit {
            let reason: StorageEvent.Reason = state.list.totalCost > byteLimit ? .byteLimit : .countLimit
            guard let victim = state.list.popLeastRecent() else { break }
            dropped(victim.value, from: &state)
            events.append(StorageEvent(.evict, storageClass, digest: victim.value.digest, bytes: victim.cost,
                                       metadata: victim.value.metadata, reason: reason))
        }
        return events
    }

    func remove(_ key: String) -> EntryMetadata? {
        state.withLock { remove(key, from: &$0)?.value.metadata }
    }

    /// Removes matching entries; returns each with its cost, least recently used first.
    func removeAll(where predicate: (EntryMetadata) -> Bool) -> [(item: Item, cost: Int)] {
        state.withLock { state in
            var removed: [(item: Item, cost: Int)] = []
            for candidate in state.list.leastRecentFirst() where predicate(candidate.value.metadata) {
                remove(candidate.key, from: &state)
                removed.append((candidate.value, candidate.cost))
            }
            return removed
        }
    }

    /// Drops `key` from the index with its pending write and its file, under the lock the caller holds.
    @discardableResult
    func remove(_ key: String, from state: inout State) -> (value: Item, cost: Int)? {
        guard let removed = state.list.remove(key) else { return nil }
        dropped(removed.value, from: &state)
        return removed
    }

    /// Forgets the pending write of an item that left the index and unlinks its file (never following a
    /// symlink), under the lock the caller holds.
    func dropped(_ item: Item, from state: inout State) {
        state.forget(item)
        unlinkFile(item.digest)
    }

    func inventory() -> [EntryMetadata] {
        state.withLock { $0.list.leastRecentFirst().map(\.value.metadata) }
    }

    var totals: StorageTotals {
        state.withLock { StorageTotals(bytes: $0.list.totalCost, count: $0.list.count) }
    }

    /// Removes the entries past `expiresAt`, reporting each (under the lock, like every event that
    /// follows an index change).
    func sweep(now: Double) -> [EntryMetadata] {
        state.withLock { state in
            var removed: [EntryMetadata] = []
            for candidate in state.list.leastRecentFirst() where candidate.value.metadata.expiresAt <= now {
                remove(candidate.key, from: &state)
                emit([StorageEvent(.expire, storageClass, digest: candidate.value.digest, bytes: candidate.cost,
                                   metadata: candidate.value.metadata, reason: .expired)])
                removed.append(candidate.value.metadata)
            }
            return removed
        }
    }
}
