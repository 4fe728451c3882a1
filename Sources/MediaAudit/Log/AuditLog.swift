import Glibc
import MediaCrypto
import Synchronization

/// The append-only, hash-chained audit writer: JSON Lines in `<state>/audit/audit.jsonl`.
///
/// - The folder is created 0700, the file opened `O_APPEND` and kept 0600.
/// - Each ``append(_:)`` assigns `seq` (previous + 1), `time` (the injected clock), `prev` (the previous
///   `hash`) and `hash`, then writes the line in one `write(2)`; a failed write is truncated away. When even
///   that truncation fails, the log stops using its descriptor until ``reopenIfNeeded()`` repairs the file
///   (``RecoveringAuditLog`` calls it on each retry).
/// - fsync is batched (``Configuration/syncEveryRecords``, ``Configuration/syncIntervalMilliseconds``) and
///   always done by ``flush()`` and ``close()``; ``sync(through:)`` makes one record durable on demand (a
///   file store calls it before an object file it recorded becomes visible: docs/storage.md, "Durability"). With ``Configuration/syncsInBackground`` (the default) a
///   batch's fsync runs on the log's own thread (group commit): the appending caller never waits for the
///   disk, yet its line is in the file (`write(2)` returned) before ``append(_:)`` returns. That thread
///   also syncs records left unsynced for ``Configuration/syncIntervalMilliseconds`` of real time
///   without a batch, so a quiet log does not keep them in the page cache only.
/// - Rotation: when an append would grow the file past ``Configuration/maxSegmentBytes``, the file is
///   renamed `audit-000001.jsonl`, `audit-000002.jsonl`, … and a new `audit.jsonl` continues the chain.
/// - Reopening continues from the last valid record; a torn last line is truncated and reported in
///   ``openReport`` (no record is invented).
///
/// Thread-safe: appends are serialised by a `Mutex`, so `seq` strictly increases and the chain stays intact.
/// One writer per folder: opening takes an exclusive `flock(2)` on the audit folder (released by
/// ``close()``), so a second ``AuditLog`` on the same folder, in this or another process, is refused.
public final class AuditLog: Sendable {
    /// Milliseconds since the Unix epoch; injected so tests control `time`.
    public typealias Clock = @Sendable () -> Int64

    /// The audit folder (`<state>/audit`).
    public let directory: String
    /// The configuration in effect.
    public let configuration: Configuration
    /// What opening found.
    public let openReport: OpenReport
    /// The key that signs the tree's checkpoints, or `nil`.
    public let signer: NoteSigner?

    struct State {
        var fd: Int32
        var lockFD: Int32
        var activeSize: Int
        var lastSeq: Int
        var lastHash: AuditDigest
        var nextSegmentIndex: Int
        var unsynced: Int
        var lastSyncMilliseconds: Int64
        /// A background fsync was requested and has not finished yet.
        var syncRequested = false
        /// The error of a failed background fsync, thrown by the next append.
        var syncError: AuditError?
        /// Completed background fsyncs (for tests and metrics).
        var backgroundSyncs = 0
        /// ``close()`` was called (`fd` < 0 without it: the log stopped using a file it could not repair).
        var isClosed = false
        /// The Merkle tree's entries, frontier and checkpoints (`nil` when it could not be opened:
        /// ``OpenReport/treeProblem``).
        var tree: AuditTreeWriter?
        /// The buffers of an append's lines and record hashes, kept between appends (emptied, capacity kept).
        var lines: [UInt8] = []
        var digests: [InlineSHA256Digest] = []
    }

    let clock: Clock
    /// Told of every write point (tests); `nil` in production.
    let observer: (any AuditWriteObserver)?
    /// Writes each batch's bytes (``SystemAuditFileWriter`` unless a test injects a failing one).
    let writer: any AuditFileWriting
    let state: Mutex<State>
    let syncer = AuditSyncThread()
    /// `<directory>/audit.jsonl`, made once (not per append).
    let activePath: String
    /// The most bytes of lines an append's buffer keeps for the next one: 65,536.
    static let keptBufferBytes = 65_536

    /// Opens (or creates) the log of a state directory: `<stateDirectory>/audit/audit.jsonl`.
    /// - Throws: ``AuditError/Code/locked`` when another open ``AuditLog`` holds the folder,
    ///   ``AuditError/Code/io`` for a file-system failure, ``AuditError/Code/corruptLog`` when the
    ///   last complete line cannot be parsed even after removing a torn tail.
    public convenience init(
        stateDirectory: String, configuration: Configuration = Configuration(),
        clock: @escaping Clock = AuditLog.systemClock, observer: (any AuditWriteObserver)? = nil,
        writer: any AuditFileWriting = SystemAuditFileWriter(), signer: NoteSigner? = nil
    ) throws {
        try self.init(directory: stateDirectory + "/audit", configuration: configuration, clock: clock, observer: observer,
                      writer: writer, signer: signer)
    }

    /// Opens (or creates) the log in an audit folder. Same errors as ``init(stateDirectory:configuration:clock:observer:writer:)``.
    /// - Parameters:
    ///   - observer: told of every write point (crash tests). Default `nil`.
    ///   - writer: writes each batch's bytes. Default: ``SystemAuditFileWriter`` (`write(2)`); tests inject a
    ///     failing one.
    ///   - signer: signs the Merkle tree's checkpoints (`tree-checkpoint`, ``AuditTreeWriter``); without one the log
    ///     keeps the tree's entries but writes no checkpoint.
    public init(
        directory: String, configuration: Configuration = Configuration(),
        clock: @escaping Clock = AuditLog.systemClock, observer: (any AuditWriteObserver)? = nil,
        writer: any AuditFileWriting = SystemAuditFileWriter(), signer: NoteSigner? = nil
    ) throws {
        self.directory = directory
        activePath = directory + "/" + AuditFiles.activeName
        self.configuration = configuration
        self.clock = clock
        self.observer = observer
        self.writer = writer
        self.signer = signer
        try AuditFiles.makeDirectory(directory)
        // The lock `mediactl audit prune` and readers share (docs/audit-format.md, "Retention"); made here so
        // that a reader can take it before the first prune ever creates it.
        let pruneLock = open(directory + "/" + AuditFiles.pruneLockName, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        if pruneLock >= 0 { Glibc.close(pruneLock) }
        let lockFD = try AuditFiles.lockDirectory(directory)
        let path = directory + "/" + AuditFiles.activeName
        let resumed: Resumed
        let fd: Int32
        let size: Int
        do {
            resumed = try Self.resume(directory: directory)
            fd = try AuditFiles.openAppend(path)
            do {
                size = try AuditFiles.size(fd, path: path)
                // What an earlier process wrote may still be in the page cache only: every record found
                // counts as durable (``durableSeq``), so make it so.
                try AuditFiles.sync(fd, path: path)
                try AuditFiles.syncDirectory(directory)
            } catch {
                Glibc.close(fd)
                throw error
            }
        } catch {
            Glibc.close(lockFD)
            throw error
        }
        // A tree that cannot be opened (a log pruned before the writer kept entries) costs the log its checkpoints,
        // never its records.
        var tree: AuditTreeWriter?
        var treeProblem: String?
        do {
            tree = try AuditTreeWriter.open(directory: directory, lastSeq: resumed.lastSeq, signer: signer,
                                            every: configuration.checkpointEveryRecords,
                                            interval: configuration.checkpointIntervalMilliseconds, now: clock())
            // Records an earlier process wrote after its last checkpoint (a kill) get one now; they are fsynced above.
            if let opened = tree, opened.frontier.size > opened.checkpointed { try? tree?.checkpoint(now: clock()) }
        } catch {
            treeProblem = (error as? AuditError)?.context ?? "\(error)"
        }
        self.openReport = OpenReport(
            tornTailBytes: resumed.tornTailBytes, lastSeq: resumed.lastSeq, lastHash: resumed.lastHash,
            rotatedSegments: resumed.rotatedSegments, treeProblem: treeProblem)
        self.state = Mutex(State(
            fd: fd, lockFD: lockFD, activeSize: size, lastSeq: resumed.lastSeq, lastHash: resumed.lastHash,
            nextSegmentIndex: resumed.nextSegmentIndex, unsynced: 0, lastSyncMilliseconds: clock(), tree: tree))
        if configuration.syncsInBackground {
            let idle = max(0.001, Double(configuration.syncIntervalMilliseconds) / 1000)
            syncer.start(idleInterval: idle) { [weak self] in self?.backgroundSync() }
        }
    }

    deinit {
        syncer.stop()
        state.withLock { state in
            if state.fd >= 0 {
                _ = fsync(state.fd)
                Glibc.close(state.fd)
                state.fd = -1
            }
            if state.lockFD >= 0 {
                Glibc.close(state.lockFD)
                state.lockFD = -1
            }
            state.tree?.close()
        }
    }

    /// CLOCK_REALTIME in milliseconds since the Unix epoch.
    public static let systemClock: Clock = { AuditFiles.nowMilliseconds() }

    /// `seq` of the last record written (0 when the log is empty).
    public var lastSeq: Int { state.withLock { $0.lastSeq } }
    /// `hash` of the last record written (``AuditDigest/zero`` when the log is empty).
    public var lastHash: AuditDigest { state.withLock { $0.lastHash } }

    /// Records appended since the last fsync (0 right after a sync). With background syncing this
    /// drops to 0 (or to the records appended meanwhile) when the log's thread finishes a batch.
    public var unsyncedRecords: Int { state.withLock { $0.unsynced } }

    /// fsyncs completed by the background thread so far (0 without ``Configuration/syncsInBackground``).
    public var backgroundSyncCount: Int { state.withLock { $0.backgroundSyncs } }

    /// Appends one record and returns it as written.
    /// - Throws: ``AuditError/Code/invalidNumber`` for a negative number (nothing written),
    ///   ``AuditError/Code/closed`` after ``close()``, ``AuditError/Code/io`` when writing, rotating or
    ///   syncing fails (with the call's `errno`, ``AuditError/errno``). A failed write or rotation leaves
    ///   nothing of the record in the log and does not consume `seq` (a partial line is truncated away; if
    ///   that truncation fails too, the log stops using the file and later appends throw
    ///   ``AuditError/Code/io`` until ``reopenIfNeeded()`` has removed it). A failed batched fsync is thrown
    ///   after the record was written: it is in the file and `seq` is consumed (with background
    ///   syncing, by the first append after the failure).
    @discardableResult
    public func append(_ entry: AuditEntry) throws -> AuditRecord {
        try entry.validate()
        return try appendValidated(CollectionOfOne(entry), collecting: false).last
    }

    /// Appends several records with one `write(2)` (consecutive `seq`), e.g. per-key `purge` records
    /// followed by their summary, never split across segments. Same errors as ``append(_:)``, for the
    /// batch as a whole.
    @discardableResult
    public func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] {
        for entry in entries { try entry.validate() }
        guard !entries.isEmpty else { return [] }
        return try appendValidated(entries, collecting: true).all
    }

    /// Appends validated `entries` (at least one) with one `write(2)` and returns the last record made and, when
    /// `collecting` (or an observer is told of them), all of them. A throw before the write leaves none of them in the
    /// log; a failed fsync is thrown after they were written (``append(_:)``).
    private func appendValidated(_ entries: some Collection<AuditEntry>, collecting: Bool) throws
        -> (last: AuditRecord, all: [AuditRecord])
    {
        try state.withLock { state throws -> (last: AuditRecord, all: [AuditRecord]) in
            try usable(state, "append")
            let now = clock()
            let time = AuditTime(millisecondsSinceEpoch: now)
            // The buffers of the last append, reused: taken from the state and put back emptied (a large batch's, such
            // as a purge's, are let go rather than kept).
            var bytes: [UInt8] = []
            var digests: [InlineSHA256Digest] = []
            swap(&bytes, &state.lines)
            swap(&digests, &state.digests)
            defer {
                if bytes.capacity > Self.keptBufferBytes { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
                if digests.capacity > Self.keptBufferBytes / 512 { digests = [] } else { digests.removeAll(keepingCapacity: true) }
                swap(&bytes, &state.lines)
                swap(&digests, &state.digests)
            }
            bytes.reserveCapacity(512 * entries.count)
            var all: [AuditRecord] = []
            let collects = collecting || observer != nil
            if collects { all.reserveCapacity(entries.count) }
            var last: AuditRecord?
            var prev = state.lastHash
            var seq = state.lastSeq
            for entry in entries {
                seq += 1
                let (record, digest) = AuditRecord.append(seq: seq, time: time, entry: entry, prev: prev, to: &bytes)
                prev = record.hash
                if collects { all.append(record) }
                last = record
                digests.append(digest)
            }
            if state.activeSize > 0 && state.activeSize + bytes.count > configuration.maxSegmentBytes {
                try rotate(&state)
            }
            observer?.reached(.willAppend(records: all, endOffset: state.activeSize + bytes.count))
            do {
                try writer.write(state.fd, bytes, path: activePath)
            } catch {
                // Remove a partial line; if even that fails, stop writing rather than append after garbage (an
                // immutable file refuses the truncation too, but then nothing was written: keep the descriptor).
                if ftruncate(state.fd, off_t(state.activeSize)) != 0
                    && (try? AuditFiles.size(state.fd, path: activePath)) != state.activeSize
                {
                    Glibc.close(state.fd)
                    state.fd = -1
                }
                throw error
            }
            state.activeSize += bytes.count
            state.lastSeq = seq
            state.lastHash = prev
            state.unsynced += digests.count
            // The entries are in memory now; a batch that cannot be written stays pending, and a crash's losses are
            // made again from the records at the next open.
            for digest in digests { try? state.tree?.append(digest) }
            if state.tree?.isCheckpointDue(now: now) == true { try? checkpointTree(&state, now: now) }
            if let error = state.syncError {
                state.syncError = nil
                throw error
            }
            if state.unsynced >= configuration.syncEveryRecords
                || now - state.lastSyncMilliseconds >= configuration.syncIntervalMilliseconds
            {
                if !configuration.syncsInBackground {
                    try sync(&state, now: now)
                } else if !state.syncRequested {
                    state.syncRequested = true
                    syncer.request()
                }
            }
            return (last!, all)
        }
    }
}
