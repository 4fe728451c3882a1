extension MediaCTLMain {
    /// Parses a command line (without the program name) into a ``ParsedCommandLine``.
    ///
    /// No arguments, `help` and `--help` give the overview; `help WORDS…` and `WORDS… --help`
    /// give that command's help; `--version` gives ``ParsedCommandLine/version``; a command's words give
    /// its ``MediaCommand`` with every option applied (``CommandDeclaration``).
    /// - Throws: ``UsageError`` with the exact message printed after `mediactl: `.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> ParsedCommandLine
    {
        let root = CommandTree.root
        switch try ArgumentParser(root: root).parse(arguments) {
        case .help(let spec):
            return .help(spec)
        case .parsed(let parsed):
            return try commandLine(for: parsed, environment: environment)
        }
    }

    private static func commandLine(for parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> ParsedCommandLine
    {
        switch parsed.command.path {
        case []:
            return parsed.flag("version") ? .version : .help(CommandTree.root)
        case ["help"]:
            var spec = CommandTree.root
            for word in parsed.positionals {
                guard let next = spec.subcommand(named: word) else {
                    throw ArgumentParser.unknownCommand(word, under: spec)
                }
                spec = next
            }
            return .help(spec)
        default:
            guard let type = CommandTree.command(at: parsed.command.path) else { return .help(parsed.command) }
            return .command(try make(type, from: parsed, environment: environment))
        }
    }

    private static func make<Command: MediaCommand>(
        _ type: Command.Type, from parsed: ParsedArguments, environment: [String: String]
    ) throws(UsageError) -> any MediaCommand {
        try Command.declaration.make(from: parsed, environment: environment)
    }
}
