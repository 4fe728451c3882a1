import Glibc

/// Reads every file of an audit folder in chain order: `audit-000001.jsonl`, `audit-000002.jsonl`, …,
/// then `audit.jsonl`.
///
/// ``forEachLine(directory:_:)`` streams: it holds one read buffer and one line at a time, so a log of
/// any size is read in bounded memory. ``lines(directory:)`` and ``records(directory:)`` collect
/// everything and are meant for small logs (tests, tools).
public enum AuditReader {
    /// One raw line of a log file.
    public struct Line: Hashable, Sendable {
        /// File name inside the audit folder, e.g. `audit-000001.jsonl`.
        public let file: String
        /// 1-based line number inside that file.
        public let number: Int
        /// The text without its newline.
        public let text: String
        /// `false` for a last line with no trailing newline (torn).
        public let terminated: Bool
    }

    /// Bytes read per `read(2)`: 1 MiB.
    static let defaultChunkBytes = 1 << 20

    /// The log files of `directory` in chain order (full paths). A missing folder gives `[]`.
    public static func files(directory: String) -> [String] { AuditFiles.allFiles(in: directory) }

    /// Calls `body` with each line of each file in chain order, reading each file up to the end it has
    /// when reached; a file listed but gone when reached is skipped.
    /// Memory: one chunk of `chunkBytes` (default 1 MiB) plus the longest line.
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read; whatever `body` throws.
    public static func forEachLine(directory: String, _ body: (Line) throws -> Void) throws {
        try forEachLine(directory: directory, chunkBytes: defaultChunkBytes, body)
    }

    static func forEachLine(directory: String, chunkBytes: Int, _ body: (Line) throws -> Void) throws {
        try forEachLine(files: files(directory: directory), chunkBytes: chunkBytes, body)
    }

    /// ``forEachLine(directory:_:)`` over files listed earlier (``files(directory:)``).
    ///
    /// The writer may rotate meanwhile: `audit.jsonl` is opened first, then any segment that appeared
    /// since the listing is read before it (but not the one that is the file just opened, if it was
    /// renamed after the open), so no record between the listed segments and the active file is missed.
    static func forEachLine(files: [String], chunkBytes: Int = defaultChunkBytes, _ body: (Line) throws -> Void) throws {
        let lastListed = files.compactMap { AuditFiles.segmentIndex(name(of: $0)) }.max() ?? 0
        for path in files {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { continue }
                throw AuditFiles.ioError("open", path)
            }
            defer { close(fd) }
            if name(of: path) == AuditFiles.activeName {
                var opened = stat()
                let known = fstat(fd, &opened) == 0
                let directory = String(path.dropLast(AuditFiles.activeName.count + 1))
                for segment in AuditFiles.rotatedSegments(in: directory) where segment.index > lastListed {
                    var info = stat()
                    if known, stat(segment.path, &info) == 0, info.st_dev == opened.st_dev, info.st_ino == opened.st_ino {
                        continue  // rotated after the open: read below through the open descriptor
                    }
                    let segmentFD = open(segment.path, O_RDONLY | O_CLOEXEC)
                    guard segmentFD >= 0 else { throw AuditFiles.ioError("open", segment.path) }
                    defer { close(segmentFD) }
                    try readLines(segmentFD, path: segment.path, chunkBytes: chunkBytes, body)
                }
            }
            try readLines(fd, path: path, chunkBytes: chunkBytes, body)
        }
    }

    private static func name(of path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// Every line of the open file `fd` (named `path`) up to its current end.
    private static func readLines(_ fd: Int32, path: String, chunkBytes: Int, _ body: (Line) throws -> Void) throws {
        let name = name(of: path)
        var chunk = [UInt8](repeating: 0, count: max(1, chunkBytes))
        var pending: [UInt8] = []  // the start of a line continued in the next chunk
        var number = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw AuditFiles.ioError("read", path)
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == 0x0a {
                number += 1
                let text: String
                if pending.isEmpty {
                    text = String(decoding: chunk[start..<index], as: UTF8.self)
                } else {
                    pending += chunk[start..<index]
                    text = String(decoding: pending, as: UTF8.self)
                    pending.removeAll(keepingCapacity: true)
                }
                try body(Line(file: name, number: number, text: text, terminated: true))
                start = index + 1
            }
            pending += chunk[start..<count]
        }
        if !pending.isEmpty {
            try body(Line(file: name, number: number + 1, text: String(decoding: pending, as: UTF8.self), terminated: false))
        }
    }

    /// All lines of all files in chain order, collected (see ``forEachLine(directory:_:)`` for large logs).
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read.
    public static func lines(directory: String) throws -> [Line] {
        var lines: [Line] = []
        try forEachLine(directory: directory) { lines.append($0) }
        return lines
    }

    /// Calls `body` with each complete line and its record, in chain order (a torn last line is skipped).
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read; ``AuditError/Code/corruptLog``
    ///   (`audit.jsonl line 7: not a record (…)`) for a complete line that is not a record; whatever `body` throws.
    public static func forEachRecord(directory: String, _ body: (Line, AuditRecord) throws -> Void) throws {
        try forEachLine(directory: directory) { line in
            guard line.terminated else { return }
            let record: AuditRecord
            do { record = try AuditRecord.parse(line: line.text) } catch {
                throw AuditError(.corruptLog, "\(line.file) line \(line.number): not a record (\(error))")
            }
            try body(line, record)
        }
    }

    /// Every complete line that parses as a record, in chain order (unparsable and torn lines are skipped;
    /// use ``AuditVerifier`` to learn whether the chain is intact).
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read.
    public static func records(directory: String) throws -> [AuditRecord] {
        var records: [AuditRecord] = []
        try forEachLine(directory: directory) { line in
            if line.terminated, let record = try? AuditRecord.parse(line: line.text) { records.append(record) }
        }
        return records
    }
}
