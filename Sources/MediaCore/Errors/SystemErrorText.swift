#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one wording of an operating-system failure in mediactl's messages: the C library's text for the `errno`
/// value, then the number, e.g. `Permission denied (errno 13)`. Every file, folder and socket error that
/// reports an `errno` (policies, the state directory, secret files, the access log, the stores, the audit log,
/// CLI reads and writes) words it so, so an operator can search for one form.
public enum SystemErrorText {
    /// `strerror(code)` followed by ` (errno N)`, e.g. `describe(13)` → `"Permission denied (errno 13)"`.
    public static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// The current thread's `errno` described as ``describe(_:)`` does. Read it before any other call.
    public static var current: String { describe(errno) }
}
