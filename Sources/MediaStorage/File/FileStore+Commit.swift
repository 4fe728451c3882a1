import Glibc

extension FileStore {
    /// Under the lock the caller holds, right after the entry's `record` ran: takes the ``DurabilityBarrier``
    /// mark, and indexes `pending` for `key` as a new generation (replacing any earlier version, whose pending
    /// write is then skipped), evicting to fit the byte limit (events reported under the same lock).
    /// - Returns: the new generation and the mark.
    func indexPending(_ pending: Pending, key: String, digest: String,
                      state: inout State) -> (generation: UInt64, mark: Int?) {
        var pending = pending
        pending.mark = barrier?.mark()
        state.generation += 1
        let item = Item(digest: digest, metadata: pending.entry.metadata.indexed, generation: state.generation,
                        pending: pending)
        if let replaced = state.list.insert(key, item, cost: pending.size, weight: item.metadata.indexUnits) {
            state.forget(replaced.value)
        }
        if pending.counted { state.pendingBytes += pending.size }
        emit(evictToFit(&state))
        return (state.generation, pending.mark)
    }

    /// Makes the written, fsynced temp file of `key`'s version `generation` its object file: waits (outside
    /// the lock) until the barrier says the entry's record is durable, then, under the lock and only if the
    /// index still holds that version, renames the file into place and marks the entry written; then fsyncs
    /// the folder. A version removed or replaced meanwhile has its temp file unlinked instead.
    /// - Returns: whether the file was renamed into place.
    /// - Throws: the barrier's error, or ``StorageError`` `io` when the rename fails; the temp file is unlinked
    ///   and the index left as it is (the caller drops the entry).
    @discardableResult
    func place(_ temporary: String, in folder: Int32, key: String, digest: String, generation: UInt64,
               mark: Int?) throws -> Bool {
        if let mark, let barrier {
            do { try barrier.waitUntilDurable(mark) } catch {
                unlinkat(folder, temporary, 0)
                throw error
            }
        }
        let placed = try state.withLock { state -> Bool in
            guard !state.stopped, var latest = state.list.peek(key), latest.generation == generation else {
                unlinkat(folder, temporary, 0)
                return false
            }
            reach(.rename, digest)
            guard renameat(folder, temporary, folder, digest) == 0 else {
                let error = POSIX.failure("rename", path(of: digest))
                unlinkat(folder, temporary, 0)
                throw error
            }
            state.forget(latest)
            latest.pending = nil
            state.list.update(key, latest)
            return true
        }
        if placed && synchronizes {
            reach(.syncFolder, digest)
            fsync(folder)
        }
        return placed
    }
}
