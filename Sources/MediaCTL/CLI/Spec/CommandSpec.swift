/// The declaration of one command or subcommand: what the parser accepts and what help shows.
///
/// Every command implicitly accepts `-h`/`--help`, which prints ``helpText`` and exits 0.
public struct CommandSpec: Sendable, Hashable {
    /// One argument of a command.
    public enum Argument: Sendable, Hashable {
        /// `--name [VALUE]`.
        case option(OptionSpec)
        /// A positional argument, in declaration order among the positionals.
        case positional(PositionalSpec)
    }

    /// The words that invoke the command after `mediactl`: `["audit", "verify"]`; empty for the
    /// root command.
    public let path: [String]
    /// One-line summary, a sentence ending with a period.
    public let summary: String
    /// Options and positionals in declaration order: the order of usage (``usage``) and of help.
    public let arguments: [Argument]
    /// Subcommands, in help order. A subcommand is recognised only as the first word after its
    /// parent.
    public let subcommands: [CommandSpec]
    /// Whether the command runs on its own; `false` for a pure group such as `policy`, which then
    /// requires a subcommand. Default: `true`.
    public let isRunnable: Bool
    /// Extra help paragraphs printed after the options (defaults, exit codes, notes).
    public let notes: [String]

    public init(
        path: [String], summary: String, arguments: [Argument] = [], subcommands: [CommandSpec] = [],
        isRunnable: Bool = true, notes: [String] = []
    ) {
        self.path = path
        self.summary = summary
        self.arguments = arguments
        self.subcommands = subcommands
        self.isRunnable = isRunnable
        self.notes = notes
    }

    /// Long options, in help order.
    public var options: [OptionSpec] {
        arguments.compactMap { if case .option(let spec) = $0 { spec } else { nil } }
    }

    /// Positional arguments, in order.
    public var positionals: [PositionalSpec] {
        arguments.compactMap { if case .positional(let spec) = $0 { spec } else { nil } }
    }

    /// The words after `mediactl` joined by spaces (`"audit verify"`), or `"mediactl"` for the root.
    public var displayName: String {
        path.isEmpty ? "mediactl" : path.joined(separator: " ")
    }

    /// The invocation as typed: `"mediactl audit verify"`.
    public var invocation: String {
        (["mediactl"] + path).joined(separator: " ")
    }

    /// The option named `name` (without dashes), or `nil`.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The direct subcommand whose last word is `word`, or `nil`.
    public func subcommand(named word: String) -> CommandSpec? {
        subcommands.first { $0.path.last == word }
    }

    /// The command reached by following `words` from this one, or `nil` when a word matches no
    /// subcommand.
    public func descendant(at words: some Sequence<String>) -> CommandSpec? {
        var current = self
        for word in words {
            guard let next = current.subcommand(named: word) else { return nil }
            current = next
        }
        return current
    }
}
