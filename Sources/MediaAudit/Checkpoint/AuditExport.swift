import MediaCore

/// The lines `mediactl audit export` writes for a collector (a SIEM, an auditor's archive): each record with its
/// leaf index in the log's Merkle tree (``AuditTree``: `seq` − 1), so a collector resumes after the last index it
/// holds and checks what it received against a signed checkpoint (``TreeCheckpoint``).
public enum AuditExport {
    /// How each record is written.
    public enum Format: String, Sendable, CaseIterable {
        /// JSON Lines: `{"index":N,"line":"<the record's line as written, as a JSON string>"}`: the line is the leaf's
        /// data, byte for byte, once the string is decoded.
        case jsonl
        /// RFC 5424 syslog: `<110>1 TIME - mediactl - audit [mediactl@32473 index="N"] LINE`: facility 13 (log audit),
        /// severity 6 (informational), the record's time, the record's line as the message.
        case syslog
    }

    /// The line for the record at leaf `index`, whose line is `line` and time `time`.
    public static func line(_ format: Format, index: Int, line: String, time: AuditTime) -> String {
        switch format {
        case .jsonl:
            return #"{"index":"# + String(index) + #","line":"# + JSONString.quoted(line, escapingSlashes: false) + "}"
        case .syslog:
            // RFC 5424 §6: PRI VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP SD SP MSG. 32473 is the
            // private enterprise number RFC 5612 reserves for documentation and examples.
            return "<110>1 " + time.rfc3339 + " - mediactl - audit [mediactl@32473 index=\"" + String(index) + "\"] " + line
        }
    }
}
