/// Everything `mediactl` knows about one ``MediaCommand``: where it sits in the tree, its help, and its
/// arguments bound to the command's properties. Help (``spec``), parsing (``make(from:environment:)``)
/// and docs/cli.md follow from it.
public struct CommandDeclaration<Command: MediaCommand>: Sendable {
    /// The declaration as the parser, help and usage read it (no subcommands: ``CommandTree`` adds them): the one
    /// help model, with each option's shown default read from ``defaults``.
    public let spec: CommandSpec
    /// Options and positionals in the order they are applied; options in help order.
    let arguments: [CommandArgument<Command>]
    /// The command before any argument is applied: every property at its default.
    let defaults: @Sendable () -> Command

    /// - Parameters:
    ///   - path: the words after `mediactl` (`["audit", "verify"]`).
    ///   - summary: one-line summary, a sentence ending with a period.
    ///   - arguments: the options and positionals, in the order they are applied and shown.
    ///   - notes: help paragraphs after the options (exit status, notes).
    ///   - defaults: the command with every property at its default (`{ Self() }`).
    public init(
        path: [String], summary: String, arguments: [CommandArgument<Command>] = [], notes: [String] = [],
        defaults: @escaping @Sendable () -> Command
    ) {
        let base = defaults()
        let kinds = arguments.map { argument -> CommandSpec.Argument in
            guard case .option(var spec) = argument.kind, let shown = argument.shownDefault else { return argument.kind }
            spec.defaultValue = shown(base)
            return .option(spec)
        }
        self.spec = CommandSpec(path: path, summary: summary, arguments: kinds, notes: notes)
        self.arguments = arguments
        self.defaults = defaults
    }

    /// The typed command of a checked command line: the defaults, then every argument in declaration
    /// order, then the rules across options (``ParsedArguments/checkOptionRules()``).
    /// - Throws: ``UsageError``: `missing-argument` (`<command> requires --name VALUE`) for an absent required
    ///   option, else what an argument or a rule refuses.
    func make(from parsed: ParsedArguments, environment: [String: String]) throws(UsageError) -> Command {
        var command = defaults()
        var positionalIndex = 0
        for argument in arguments {
            let input: ArgumentInput
            switch argument.kind {
            case .option(let spec):
                let given = parsed.isGiven(spec)
                if spec.isRequired, !given {
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
        try parsed.checkOptionRules()
        return command
    }
}
