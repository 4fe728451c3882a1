import MediaCore

/// A command line that does not follow a command's usage (exit status 64, `EX_USAGE`).
///
/// ``message`` is the exact text printed after `mediactl: `; ``command`` names the command whose
/// usage is printed after it. New codes may be added; switch over ``code`` with a `default`.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A word that names no command or subcommand.
        public static let unknownCommand = Code("unknown-command")
        /// A group such as `policy` was given without a subcommand.
        public static let missingSubcommand = Code("missing-subcommand")
        /// An option the command does not declare.
        public static let unknownOption = Code("unknown-option")
        /// An option that needs a value was last, or followed by another `--option`.
        public static let missingValue = Code("missing-value")
        /// An option was given an empty value (`--state-dir=`).
        public static let emptyValue = Code("empty-value")
        /// A flag was given a value (`--json=yes`).
        public static let unexpectedValue = Code("unexpected-value")
        /// A non-repeatable option was given twice.
        public static let duplicateOption = Code("duplicate-option")
        /// A required positional argument is missing.
        public static let missingArgument = Code("missing-argument")
        /// More positional arguments than the command declares.
        public static let unexpectedArgument = Code("unexpected-argument")
        /// A value has the wrong form (`--listen`, `--origin`, `--header`, `PATH`, `URL`).
        public static let invalidValue = Code("invalid-value")
        /// Options that exclude each other were combined, or none of a required group was given.
        public static let conflictingOptions = Code("conflicting-options")
    }

    /// The stable error code.
    public let code: Code
    /// The exact message, without the `mediactl: ` prefix, such as
    /// `unknown option '--state-dri'; did you mean --state-dir?`.
    public let message: String
    /// The words of the command whose usage applies (`["audit", "verify"]`; empty for the root).
    public let command: [String]

    public init(_ code: Code, _ message: String, command: [String]) {
        self.code = code
        self.message = message
        self.command = command
    }

    public var description: String { "\(code): \(message)" }
}
