#if canImport(Glibc)
import Glibc
#endif

/// Standard error of the process.
public enum StandardError {
    /// Writes `line` and a newline to standard error, in one `write(2)`: the audit events' default
    /// (MediaService's `StandardError.auditEvent`) and the curl transport's note.
    public static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
