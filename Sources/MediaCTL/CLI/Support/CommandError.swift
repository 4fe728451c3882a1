import MediaCore

/// A failure inside a command action, with the exit status it maps to.
///
/// Report it with ``CommandContext/fail(_:)``, which prints `mediactl: <message>` to stderr and
/// returns ``exitCode``. Messages never contain credentials or response bytes. New codes may be
/// added; switch over ``code`` with a `default`.
public struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// A file could not be opened or read (exit 2).
        public static let unreadableFile = Code("unreadable-file")
        /// A file could not be created or written (exit 2).
        public static let unwritableFile = Code("unwritable-file")
        /// A file was read but its content is unusable, such as a bad credential file (exit 2).
        public static let invalidFile = Code("invalid-file")
        /// Shutdown signals could not be handled (exit 1).
        public static let signalHandling = Code("signal-handling")
        /// A value could not be encoded as JSON (exit 1).
        public static let encodingFailed = Code("encoding-failed")
    }

    /// The stable error code.
    public let code: Code
    /// The exact message printed after `mediactl: `.
    public let message: String
    /// The exit status of the command that fails with this error.
    public let exitCode: ExitCode

    public init(_ code: Code, _ message: String, exitCode: ExitCode) {
        self.code = code
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String { "\(code): \(message)" }
}

extension CommandContext {
    /// Prints `mediactl: <error.message>` to stderr and returns `error.exitCode`.
    public func fail(_ error: CommandError) -> ExitCode {
        diagnose(error.message)
        return error.exitCode
    }
}
