import Glibc

extension AuditLog {
    /// Whether the log writes through an open descriptor (`false` after ``close()``, or while it has stopped
    /// using a file it could not repair).
    public var isOpen: Bool { state.withLock { $0.fd >= 0 } }

    /// Makes the log usable again after it stopped using its file (a partial line it could not truncate, or a
    /// rotation whose new `audit.jsonl` could not be created): resumes from the folder as opening does, a torn
    /// last line truncated, then opens `audit.jsonl` for appending and fsyncs it and the folder. Does nothing
    /// while the descriptor is in use. ``RecoveringAuditLog`` calls it before each retry.
    ///
    /// The chain continues only where this writer left it: the folder's last record must be the last one this
    /// log wrote (same `seq` and `hash`).
    /// - Throws: ``AuditError/Code/closed`` after ``close()``; ``AuditError/Code/io`` when the file still cannot be
    ///   read, repaired or opened; ``AuditError/Code/corruptLog`` when the folder no longer ends with this log's
    ///   last record (`audit.jsonl changed while it could not be written: the folder ends at seq 7, the writer at
    ///   seq 9`), which a restart reports instead of hiding.
    public func reopenIfNeeded() throws {
        try state.withLock { state in
            guard state.fd < 0 else { return }
            if state.isClosed { throw AuditError(.closed, "reopen after close of \(activePath)") }
            let resumed = try Self.resume(directory: directory)
            guard resumed.lastSeq == state.lastSeq, resumed.lastHash == state.lastHash else {
                throw AuditError(.corruptLog, "audit.jsonl changed while it could not be written: the folder ends at "
                    + "seq \(resumed.lastSeq), the writer at seq \(state.lastSeq)")
            }
            let fd = try AuditFiles.openAppend(activePath)
            do {
                let size = try AuditFiles.size(fd, path: activePath)
                try AuditFiles.sync(fd, path: activePath)
                try AuditFiles.syncDirectory(directory)
                state.fd = fd
                state.activeSize = size
                state.nextSegmentIndex = resumed.nextSegmentIndex
                state.unsynced = 0
                state.lastSyncMilliseconds = clock()
            } catch {
                Glibc.close(fd)
                throw error
            }
        }
    }
}
