import Dispatch
import Glibc

extension FileStore {
    /// Runs `record`, indexes `pending` for `key` and queues its file write on ``writer``, all under the
    /// lock (the evictions the insert causes are reported there too, after `record`).
    /// - Returns: false (nothing done, `record` not run) when the pending bytes would pass
    ///   ``pendingByteLimit``: the caller then writes the file itself.
    /// - Throws: ``StorageError`` `stopped`, or what `record` throws (then nothing is stored).
    func storeBehind(_ pending: Pending, key: String, digest: String, recordingFirst record: () throws -> Void) throws -> Bool {
        guard let writer else { preconditionFailure("storeBehind without a writer") }
        return try state.withLock { state in
            guard !state.stopped else { throw StorageError(.stopped, "the \(storageClass) store was stopped") }
            guard state.pendingBytes + pending.size <= pendingByteLimit else { return false }
            try record()
            let generation = indexPending(pending, key: key, digest: digest, state: &state).generation
            // Queued under the lock: jobs reach the writer in generation order.
            writer.async { [self] in writePending(key, generation: generation) }
            return true
        }
    }

    /// The writer's job: writes (and fsyncs) the temp file of `key`'s pending version `generation`, waits
    /// for its record to be durable (``DurabilityBarrier``), and renames it into place if the index still
    /// holds that version (else the new file is unlinked): ``place(_:in:key:digest:generation:mark:)``.
    /// A failed write, barrier or rename drops the entry from the index, reported as
    /// ``StorageEvent/Kind/evict`` with reason ``StorageEvent/Reason/writeFailed``.
    func writePending(_ key: String, generation: UInt64) {
        let current: Item? = state.withLock { state in
            guard !state.stopped, let item = state.list.peek(key), item.generation == generation else { return nil }
            return item
        }
        guard let item = current, let pending = item.pending else { return }
        do {
            try withFolder(of: item.digest, create: true) { folder in
                let temporary = try writeTemporary(metadata: pending.encodedMetadata, entry: pending.entry,
                                                   digest: item.digest, in: folder)
                try place(temporary, in: folder, key: key, digest: item.digest, generation: generation, mark: pending.mark)
            }
        } catch {
            state.withLock { state in
                // An earlier version's file goes too: it must not outlive the index entry.
                guard let latest = state.list.peek(key), latest.generation == generation,
                      let removed = remove(key, from: &state) else { return }
                // Reported under the lock: a newer version's audit record cannot slip in before this one.
                emit([StorageEvent(.evict, storageClass, digest: removed.value.digest, bytes: removed.cost,
                                   metadata: removed.value.metadata, reason: .writeFailed)])
            }
        }
    }

    /// File bytes of the entries whose write is pending.
    var pendingBytes: Int { state.withLock { $0.pendingBytes } }

    /// Waits until every write queued so far has finished (written, skipped or failed). No-op
    /// without write-behind. Must not be called from the writer (an event handler): it would wait for itself.
    func flush() {
        guard let writer else { return }
        dispatchPrecondition(condition: .notOnQueue(writer))
        writer.sync {}
    }

    /// Stops taking and writing entries, then waits for a write in progress: afterwards no file is
    /// created or renamed and the format's key is no longer used. Reads return `nil` from now on.
    func quiesce() {
        state.withLock { $0.stopped = true }
        flush()
    }
}
