import Glibc
import Synchronization

/// Durability and rotation: ``flush()``, ``sync(through:)``, the background sync (group commit), the tree checkpoint,
/// ``close()`` and segment rotation.
extension AuditLog {
    /// fsyncs every record appended so far. The fsync runs on a duplicate of the descriptor outside
    /// the lock, as the background sync does, so appends (which callers may make under their own locks)
    /// never wait for the disk behind it.
    /// - Throws: ``AuditError/Code/io`` (also while the log has stopped using its file); ``AuditError/Code/closed``
    ///   after ``close()``.
    public func flush() throws {
        try sync(through: nil)
    }

    /// `seq` of the last record known durable: every record up to it was fsynced (0 when none was).
    public var durableSeq: Int { state.withLock { $0.lastSeq - $0.unsynced } }

    /// Returns once the records up to `seq` are durable: at once when an fsync already covered them,
    /// else after one fsync of `audit.jsonl` (outside the lock, like ``flush()``; it covers every record
    /// written before it starts, so concurrent callers share it). A file store waits for this before it
    /// renames an object file into place (`MediaStorage.DurabilityBarrier`).
    /// - Throws: ``AuditError/Code/io`` (also while the log has stopped using its file); ``AuditError/Code/closed``
    ///   after ``close()`` when `seq` is not durable.
    public func sync(through seq: Int) throws {
        try sync(through: Optional(seq))
    }

    /// fsyncs when a record up to `seq` (every record when `nil`) is not durable yet.
    func sync(through seq: Int?) throws {
        let started = try state.withLock { state -> (fd: Int32, seq: Int, bytes: Int)? in
            if let seq, state.lastSeq - state.unsynced >= seq { return nil }
            try usable(state, "flush")
            guard state.unsynced > 0 else { return nil }
            let copy = dup(state.fd)
            guard copy >= 0 else { throw AuditFiles.ioError("dup", activePath) }
            return (copy, state.lastSeq, state.activeSize)
        }
        guard let started else { return }
        defer { Glibc.close(started.fd) }
        observer?.reached(.willSync(throughSeq: started.seq, activeBytes: started.bytes))
        try AuditFiles.sync(started.fd, path: activePath)
        observer?.reached(.synced(throughSeq: started.seq, activeBytes: started.bytes))
        let now = clock()
        state.withLock { state in
            // Records appended after the fsync started stay unsynced (a rotation may have synced more).
            state.unsynced = min(state.unsynced, state.lastSeq - started.seq)
            state.syncError = nil
            state.lastSyncMilliseconds = now
        }
    }

    /// fsyncs and closes the file. Later appends throw ``AuditError/Code/closed``; closing twice is a no-op.
    /// - Throws: ``AuditError/Code/io`` when the final fsync fails (the file is closed anyway).
    public func close() throws {
        syncer.stop()
        try state.withLock { state in
            defer {
                if state.fd >= 0 { Glibc.close(state.fd) }
                if state.lockFD >= 0 { Glibc.close(state.lockFD) }
                state.fd = -1
                state.lockFD = -1
                state.isClosed = true
            }
            if state.fd >= 0 {
                try sync(&state, now: clock())
                try? state.tree?.checkpoint(now: clock())
            }
            state.tree?.close()
        }
    }

    /// Writes the tree's signed checkpoint of every record so far now (the records and entries fsynced first), and
    /// returns its note: what an erasure receipt's proof leads to.
    /// - Throws: ``AuditError`` `io`, `closed`; `invalid-note` when the log has no signer or its tree could not be
    ///   opened (``OpenReport/treeProblem``).
    public func checkpointNow() throws -> String {
        try state.withLock { state throws -> String in
            try usable(state, "checkpoint")
            guard signer != nil, state.tree != nil else {
                throw AuditError(.invalidNote, "the audit log signs no checkpoints (\(openReport.treeProblem ?? "no signing key"))")
            }
            try checkpointTree(&state, now: clock())
            guard let note = try AuditFiles.read(directory + "/" + AuditTreeWriter.checkpointName) else {
                throw AuditError(.io, "\(directory)/\(AuditTreeWriter.checkpointName) is missing after it was written")
            }
            return String(decoding: note, as: UTF8.self)
        }
    }

    /// fsyncs the records, then writes the tree's checkpoint (``AuditTreeWriter/checkpoint()``).
    func checkpointTree(_ state: inout State, now: Int64) throws {
        if state.unsynced > 0 { try sync(&state, now: now) }
        try state.tree?.checkpoint(now: now)
    }

    func sync(_ state: inout State, now: Int64) throws {
        observer?.reached(.willSync(throughSeq: state.lastSeq, activeBytes: state.activeSize))
        try AuditFiles.sync(state.fd, path: activePath)
        observer?.reached(.synced(throughSeq: state.lastSeq, activeBytes: state.activeSize))
        state.unsynced = 0
        state.syncError = nil
        state.lastSyncMilliseconds = now
    }

    /// One group commit on the log's thread: fsyncs a duplicate of the descriptor outside the lock
    /// (appends go on meanwhile; a rotation or close may close the original), then counts as synced
    /// every record written before the fsync started.
    func backgroundSync() {
        let started = state.withLock { state -> (fd: Int32, seq: Int, bytes: Int)? in
            guard state.fd >= 0, state.unsynced > 0 else {
                state.syncRequested = false
                // A quiet log's records that waited long enough get their checkpoint here (they are all synced).
                let now = clock()
                if state.fd >= 0, state.tree?.isCheckpointDue(now: now) == true { try? state.tree?.checkpoint(now: now) }
                return nil
            }
            let copy = dup(state.fd)
            guard copy >= 0 else {
                state.syncRequested = false
                state.syncError = AuditFiles.ioError("dup", activePath)
                return nil
            }
            return (copy, state.lastSeq, state.activeSize)
        }
        guard let started else { return }
        let failure: AuditError?
        do {
            observer?.reached(.willSync(throughSeq: started.seq, activeBytes: started.bytes))
            try AuditFiles.sync(started.fd, path: activePath)
            observer?.reached(.synced(throughSeq: started.seq, activeBytes: started.bytes))
            failure = nil
        } catch {
            failure = error as? AuditError ?? AuditError(.io, "fsync \(activePath)")
        }
        Glibc.close(started.fd)
        let now = clock()
        state.withLock { state in
            state.syncRequested = false
            if let failure {
                state.syncError = failure
                return
            }
            // Records appended after the fsync started stay unsynced (a rotation may have synced more).
            state.unsynced = min(state.unsynced, state.lastSeq - started.seq)
            state.lastSyncMilliseconds = now
            state.backgroundSyncs += 1
        }
    }

    /// Throws unless the log can write: ``AuditError/Code/closed`` after ``close()``, ``AuditError/Code/io`` while
    /// it has stopped using a file it could not repair (until ``reopenIfNeeded()``).
    func usable(_ state: State, _ call: String) throws {
        guard state.fd < 0 else { return }
        if state.isClosed { throw AuditError(.closed, "\(call) after close of \(activePath)") }
        throw AuditError(.io, "\(activePath) is not open: an earlier write or rotation failed and its file is not repaired yet")
    }

    /// Renames the full active file to the next `audit-NNNNNN.jsonl` and opens a new active file. Once the rename
    /// is done the segment counts as written, even when the new file cannot be opened (the log then stops using a
    /// descriptor until ``reopenIfNeeded()`` creates it).
    func rotate(_ state: inout State) throws {
        try sync(&state, now: clock())
        // The segment's last record gets a checkpoint, and its entries are durable before a prune may remove it.
        try? state.tree?.checkpoint(now: clock())
        let target = directory + "/" + AuditFiles.segmentName(state.nextSegmentIndex)
        observer?.reached(.willRotate(segment: AuditFiles.segmentName(state.nextSegmentIndex)))
        try AuditFiles.renameNoReplace(activePath, target)
        Glibc.close(state.fd)
        state.fd = -1
        state.nextSegmentIndex += 1
        state.activeSize = 0
        state.unsynced = 0
        state.fd = try AuditFiles.openAppend(activePath)
        try AuditFiles.syncDirectory(directory)
        observer?.reached(.rotated)
    }
}
