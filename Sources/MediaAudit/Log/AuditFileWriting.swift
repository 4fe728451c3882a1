/// How an ``AuditLog`` writes a batch's bytes to `audit.jsonl`: the one call a failing disk makes fail (full,
/// made immutable, read-only, failing). Injected by tests to make appends fail and recover without touching the
/// file system (``AuditLog/init(directory:configuration:clock:observer:writer:)``).
public protocol AuditFileWriting: Sendable {
    /// Writes all of `bytes` to the descriptor `fd` of `path` (opened `O_APPEND`).
    /// - Throws: ``AuditError`` ``AuditError/Code/io`` with the call's `errno` and
    ///   ``AuditError/operation`` (`write <path>`). Some of the bytes may have been written before it throws;
    ///   the log then truncates them away.
    func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws
}

/// The production writer: `write(2)` until every byte is written, retrying short writes and `EINTR`.
public struct SystemAuditFileWriter: AuditFileWriting {
    public init() {}

    public func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try AuditFiles.writeAll(fd, bytes, path: path)
    }
}
