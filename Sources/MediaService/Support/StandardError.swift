import MediaAudit
import MediaCore

extension StandardError {
    /// ``MediaAudit/AuditWriterEvent/message`` after `mediactl: ` and a newline on standard error: the default
    /// ``ServiceConfiguration/auditEvents``.
    public static let auditEvent: @Sendable (AuditWriterEvent) -> Void = { event in
        StandardError.write("mediactl: " + event.message)
    }
}
