#if canImport(Glibc)
import Glibc
#endif
import MediaAudit

/// Standard error of the process.
public enum StandardError {
    /// Writes `line` and a newline to standard error, in one `write(2)` (the audit events' default,
    /// ``auditEvent``).
    public static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// ``MediaAudit/AuditWriterEvent/message`` after `mediactl: ` and a newline on standard error: the default
    /// ``ServiceConfiguration/auditEvents``.
    public static let auditEvent: @Sendable (AuditWriterEvent) -> Void = { event in
        StandardError.write("mediactl: " + event.message)
    }
}
