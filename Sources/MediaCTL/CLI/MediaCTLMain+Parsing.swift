extension MediaCTLMain {
    /// Parses a command line (without the program name) into a ``ParsedCommand``.
    ///
    /// No arguments, `help` and `--help` give the overview; `help WORDS…` and `WORDS… --help`
    /// give that command's help; `--version` gives ``ParsedCommand/version``.
    /// - Throws: ``UsageError`` with the exact message printed after `mediactl: `.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> ParsedCommand
    {
        let root = CommandCatalog.root
        switch try ArgumentParser(root: root).parse(arguments) {
        case .help(let spec):
            return .help(spec)
        case .parsed(let parsed):
            return try command(for: parsed, environment: environment)
        }
    }

    private static func command(for parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> ParsedCommand
    {
        switch parsed.command.path {
        case []:
            return parsed.flag("version") ? .version : .help(CommandCatalog.root)
        case ["help"]:
            var spec = CommandCatalog.root
            for word in parsed.positionals {
                guard let next = spec.subcommand(named: word) else {
                    throw ArgumentParser.unknownCommand(word, under: spec)
                }
                spec = next
            }
            return .help(spec)
        case ["serve"]: return .serve(try ServeOptions(parsed, environment: environment))
        case ["demo"]: return .demo(DemoOptions(parsed))
        case ["fetch"]: return .fetch(try FetchOptions(parsed, environment: environment))
        case ["inspect"]: return .inspect(try InspectOptions(parsed, environment: environment))
        case ["audit"]: return .audit(try AuditOptions(parsed, environment: environment))
        case ["audit", "verify"]: return .auditVerify(AuditVerifyOptions(parsed, environment: environment))
        case ["audit", "prune"]: return .auditPrune(try AuditPruneOptions(parsed, environment: environment))
        case ["policy", "check"]: return .policyCheck(PolicyCheckOptions(parsed))
        case ["purge"]: return .purge(try PurgeOptions(parsed, environment: environment))
        case ["reload"]: return .reload(ReloadOptions(parsed, environment: environment))
        case ["warm"]: return .warm(try WarmOptions(parsed, environment: environment))
        case ["sign"]: return .sign(try SignOptions(parsed))
        default:
            return .help(parsed.command)
        }
    }
}
