/// A destination for command output: standard output, standard error, or a capture in tests.
///
/// Writers may be called from any task or thread; implementations serialise their own writes.
/// Text is written as UTF-8; nothing is appended (callers add `"\n"`).
public protocol OutputSink: Sendable {
    /// Writes `bytes` in full, in order. Errors of the underlying destination are ignored
    /// (a closed pipe must not crash the command).
    func write(bytes: [UInt8])
}

extension OutputSink {
    /// Writes `text` as UTF-8, without adding a line break.
    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// Writes `line` followed by `"\n"`.
    public func writeLine(_ line: String = "") {
        write(line + "\n")
    }
}
