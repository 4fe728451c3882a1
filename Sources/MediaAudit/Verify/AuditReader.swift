/// Reads every file of an audit folder in chain order: `audit-000001.jsonl`, `audit-000002.jsonl`, …,
/// then `audit.jsonl`.
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

    /// The log files of `directory` in chain order (full paths). A missing folder gives `[]`.
    public static func files(directory: String) -> [String] { AuditFiles.allFiles(in: directory) }

    /// All lines of all files in chain order.
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read.
    public static func lines(directory: String) throws -> [Line] {
        var lines: [Line] = []
        for path in files(directory: directory) {
            guard let bytes = try AuditFiles.read(path) else { continue }
            let name = String(path.split(separator: "/").last ?? "")
            var start = 0
            var number = 0
            for index in bytes.indices where bytes[index] == 0x0a {
                number += 1
                lines.append(Line(
                    file: name, number: number, text: String(decoding: bytes[start..<index], as: UTF8.self),
                    terminated: true))
                start = index + 1
            }
            if start < bytes.count {
                lines.append(Line(
                    file: name, number: number + 1, text: String(decoding: bytes[start...], as: UTF8.self),
                    terminated: false))
            }
        }
        return lines
    }

    /// Every complete line that parses as a record, in chain order (unparsable and torn lines are skipped;
    /// use ``AuditVerifier`` to learn whether the chain is intact).
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read.
    public static func records(directory: String) throws -> [AuditRecord] {
        try lines(directory: directory).compactMap { line in
            line.terminated ? try? AuditRecord.parse(line: line.text) : nil
        }
    }
}
