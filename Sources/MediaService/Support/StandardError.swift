#if canImport(Glibc)
import Glibc
#endif

extension MediaService {
    /// Writes `line` and a newline to standard error, in one `write(2)` (the audit events' default,
    /// ``writeAuditEventToStandardError``, and the curl transport's note).
    public static func writeToStandardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
