/// An access log file that cannot be opened or reopened; ``message`` is the exact text:
/// `cannot open access log 'PATH': <errno text>`.
public struct AccessLogError: Error, Hashable, Sendable {
    /// The exact text.
    public let message: String

    public init(_ message: String) { self.message = message }
}
