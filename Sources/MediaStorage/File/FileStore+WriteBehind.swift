import Glibc

extension FileStore {
    /// Indexes `pending` for `key` at once and queues its file write on ``writer``.
    /// - Returns: the evictions the insert caused, or `nil` (nothing changed) when the pending bytes
    ///   would pass ``pendingByteLimit``: the caller then writes the file itself.
    /// - Throws: ``StorageError`` `stopped`.
    func storeBehind(_ pending: Pending, key: String, digest: String) throws -> [StorageEvent]? {
        let queued: (generation: UInt64, events: [StorageEvent])? = try state.withLock { state in
            guard !state.stopped else { throw StorageError(.stopped, "the \(storageClass) store was stopped") }
            guard state.pendingBytes + pending.size <= pendingByteLimit else { return nil }
            state.generation += 1
            let item = Item(digest: digest, metadata: pending.entry.metadata, generation: state.generation, pending: pending)
            if let replaced = state.list.insert(key, item, cost: pending.size) { state.forget(replaced.value) }
            state.pendingBytes += pending.size
            return (state.generation, evictToFit(&state))
        }
        guard let queued, let writer else { return nil }
        writer.async { [self] in writePending(key, generation: queued.generation) }
        return queued.events
    }

    /// The writer's job: writes the file of `key`'s pending version `generation` and renames it into
    /// place if the index still holds that version (else the new file is unlinked). A failed write
    /// drops the entry from the index, reported as ``StorageEvent/Kind/evict`` with reason
    /// ``StorageEvent/Reason/writeFailed``.
    func writePending(_ key: String, generation: UInt64) {
        let current: Item? = state.withLock { state in
            guard !state.stopped, let item = state.list.peek(key), item.generation == generation else { return nil }
            return item
        }
        guard let item = current, let pending = item.pending else { return }
        do {
            try withFolder(of: item.digest, create: true) { folder in
                let temporary = try writeTemporary(metadata: pending.encodedMetadata, body: pending.entry.body,
                                                   digest: item.digest, in: folder)
                try state.withLock { state in
                    guard !state.stopped, var latest = state.list.peek(key), latest.generation == generation else {
                        unlinkat(folder, temporary, 0)
                        return
                    }
                    guard renameat(folder, temporary, folder, item.digest) == 0 else {
                        let error = POSIX.failure("rename", path(of: item.digest))
                        unlinkat(folder, temporary, 0)
                        throw error
                    }
                    state.forget(latest)
                    latest.pending = nil
                    state.list.update(key, latest)
                }
                if synchronizes { fsync(folder) }
            }
        } catch {
            let dropped = state.withLock { state -> (item: Item, cost: Int)? in
                guard let latest = state.list.peek(key), latest.generation == generation,
                      let removed = state.list.remove(key) else { return nil }
                state.forget(removed.value)
                unlinkFile(removed.value.digest)   // an earlier version's file must not outlive the index entry
                return (removed.value, removed.cost)
            }
            if let dropped {
                emit([StorageEvent(.evict, storageClass, digest: dropped.item.digest, bytes: dropped.cost,
                                   metadata: dropped.item.metadata, reason: .writeFailed)])
            }
        }
    }

    /// Waits until every write queued so far has finished (written, skipped or failed). No-op
    /// without write-behind.
    func flush() {
        writer?.sync {}
    }

    /// Stops taking and writing entries, then waits for a write in progress: afterwards no file is
    /// created or renamed and the format's key is no longer used. Reads return `nil` from now on.
    func quiesce() {
        state.withLock { $0.stopped = true }
        flush()
    }
}
