/// Everything `mediactl` knows about one ``MediaCommand``: where it sits in the tree, its help, and its
/// arguments bound to the command's properties. Help (``spec``), parsing (``make(from:environment:)``)
/// and docs/cli.md follow from it.
public struct CommandDeclaration<Command: MediaCommand>: Sendable {
    /// A check across arguments once each was applied (exactly one purge target, say): the command so
    /// far and which arguments were given.
    public typealias Validation = @Sendable (inout Command, GivenArguments<Command>) throws(UsageError) -> Void

    /// The words after `mediactl` (`["audit", "verify"]`).
    public let path: [String]
    /// One-line summary, a sentence ending with a period.
    public let summary: String
    /// Synopsis lines without `Usage: `.
    public let usage: [String]
    /// Options and positionals in the order they are applied; options in help order.
    public let arguments: [CommandArgument<Command>]
    /// Help paragraphs after the options (exit status, notes).
    public let notes: [String]
    /// The command before any argument is applied: every property at its default.
    let defaults: @Sendable () -> Command
    /// The check across arguments; `nil`: none.
    let validation: Validation?

    public init(
        path: [String], summary: String, usage: [String], arguments: [CommandArgument<Command>] = [],
        notes: [String] = [], defaults: @escaping @Sendable () -> Command, validation: Validation? = nil
    ) {
        self.path = path
        self.summary = summary
        self.usage = usage
        self.arguments = arguments
        self.notes = notes
        self.defaults = defaults
        self.validation = validation
    }

    /// The declaration as the parser and help read it (no subcommands: ``CommandTree`` adds them).
    public var spec: CommandSpec {
        CommandSpec(
            path: path, summary: summary, usage: usage, options: arguments.compactMap(\.option),
            positionals: arguments.compactMap(\.positional), notes: notes)
    }

    /// The typed command of a checked command line: the defaults, then every argument in declaration
    /// order, then ``validation``.
    /// - Throws: ``UsageError``: `missing-argument` (`<command> requires --name VALUE`) for an absent required
    ///   option, else what an argument or the validation refuses.
    func make(from parsed: ParsedArguments, environment: [String: String]) throws(UsageError) -> Command {
        var command = defaults()
        var positionalIndex = 0
        for argument in arguments {
            let input: ArgumentInput
            switch argument.kind {
            case .option(let spec, let required):
                let given = spec.isFlag ? parsed.flag(spec.name) : parsed.values[spec.name] != nil
                if required, !given {
                    throw parsed.error(.missingArgument, "\(parsed.command.displayName) requires \(spec.synopsis)")
                }
                input = ArgumentInput(
                    values: parsed.allValues(spec.name), isGiven: given, environment: environment,
                    shownName: spec.flag, command: parsed.command.path)
            case .positional(let spec):
                let word = positionalIndex < parsed.positionals.count ? [parsed.positionals[positionalIndex]] : []
                positionalIndex += 1
                input = ArgumentInput(
                    values: word, isGiven: !word.isEmpty, environment: environment, shownName: spec.name,
                    command: parsed.command.path)
            }
            try argument.apply(&command, input)
        }
        try validation?(&command, GivenArguments(arguments: arguments, parsed: parsed))
        return command
    }
}

/// Which arguments of a command line were given, asked by the property they are bound to.
public struct GivenArguments<Command: MediaCommand>: Sendable {
    let arguments: [CommandArgument<Command>]
    let parsed: ParsedArguments

    /// Whether the option bound to `keyPath` was on the command line.
    public func contains(_ keyPath: PartialKeyPath<Command>) -> Bool {
        flag(of: keyPath) != nil
    }

    /// The flags (`--route`) of the options bound to `keyPaths` that were given, in declaration order.
    public func flags(of keyPaths: [PartialKeyPath<Command>]) -> [String] {
        arguments.compactMap { argument in
            guard keyPaths.contains(where: { $0 == argument.keyPath }), let spec = argument.option else { return nil }
            return isGiven(spec) ? spec.flag : nil
        }
    }

    /// A usage error about this command.
    public func error(_ code: UsageError.Code, _ message: String) -> UsageError {
        parsed.error(code, message)
    }

    private func flag(of keyPath: PartialKeyPath<Command>) -> String? {
        flags(of: [keyPath]).first
    }

    private func isGiven(_ spec: OptionSpec) -> Bool {
        spec.isFlag ? parsed.flag(spec.name) : parsed.values[spec.name] != nil
    }
}
