/// Splits a command line (without the program name) along the ``CommandSpec`` tree.
///
/// Accepted forms: subcommand words first (`audit verify`), then in any order long options
/// `--flag`, `--key value`, `--key=value`, `-h`/`--help`, and positionals; after `--` every word
/// is positional. A value that starts with `--` is not taken as a value (missing value instead).
struct ArgumentParser {
    /// What the command line asks for.
    enum Outcome: Hashable, Sendable {
        /// `-h`/`--help` (anywhere before `--`): print this command's help.
        case help(CommandSpec)
        /// A checked command line to build typed options from.
        case parsed(ParsedArguments)
    }

    /// The root of the command tree.
    let root: CommandSpec

    /// Parses `arguments`.
    /// - Throws: ``UsageError`` with codes `unknownCommand`, `unknownOption`, `missingValue`,
    ///   `emptyValue`, `unexpectedValue`, `duplicateOption`, `missingArgument`,
    ///   `unexpectedArgument`, `missingSubcommand`.
    func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        var command = root
        var index = 0
        while index < arguments.count, !command.subcommands.isEmpty, command.positionals.isEmpty {
            let word = arguments[index]
            if word.hasPrefix("-") { break }
            guard let next = command.subcommand(named: word) else {
                throw Self.unknownCommand(word, under: command)
            }
            command = next
            index += 1
        }
        let rest = arguments[index...]
        let beforeTerminator = rest.prefix { $0 != "--" }
        if beforeTerminator.contains(where: { $0 == "-h" || $0 == "--help" }) {
            return .help(command)
        }
        var parsed = ParsedArguments(command: command)
        var afterTerminator = false
        var cursor = rest.startIndex
        while cursor < rest.endIndex {
            let word = rest[cursor]
            cursor += 1
            if afterTerminator || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
            } else if word == "--" {
                afterTerminator = true
            } else if word.hasPrefix("--") {
                try Self.parseOption(word, arguments: rest, cursor: &cursor, into: &parsed)
            } else {
                throw parsed.error(.unknownOption, "unknown option '\(word)'")
            }
        }
        try Self.checkPositionals(parsed)
        if !command.isRunnable {
            let names = command.subcommands.compactMap(\.path.last).joined(separator: ", ")
            throw parsed.error(
                .missingSubcommand, "missing subcommand for '\(command.displayName)' (expected: \(names))")
        }
        return .parsed(parsed)
    }

    private static func parseOption(
        _ word: String, arguments: ArraySlice<String>, cursor: inout Int, into parsed: inout ParsedArguments
    ) throws(UsageError) {
        let body = word.dropFirst(2)
        let name: String
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
        }
        guard let option = parsed.command.option(named: name) else {
            let candidates = parsed.command.options.map(\.flag) + ["--help"]
            var message = "unknown option '--\(name)'"
            if let suggestion = Suggestion.nearest(to: "--" + name, in: candidates) {
                message += "; did you mean \(suggestion)?"
            }
            throw parsed.error(.unknownOption, message)
        }
        if option.isFlag {
            if inlineValue != nil {
                throw parsed.error(.unexpectedValue, "option '\(option.flag)' does not take a value")
            }
            if parsed.flags.contains(name), !option.isRepeatable {
                throw parsed.error(.duplicateOption, "option '\(option.flag)' given more than once")
            }
            parsed.flags.insert(name)
            return
        }
        let valueName = option.valueName ?? "VALUE"
        let value: String
        if let inlineValue {
            value = inlineValue
        } else if cursor < arguments.endIndex, !arguments[cursor].hasPrefix("--") {
            value = arguments[cursor]
            cursor += 1
        } else {
            throw parsed.error(.missingValue, "missing value for option '\(option.flag)' (expected \(valueName))")
        }
        if value.isEmpty {
            throw parsed.error(.emptyValue, "empty value for option '\(option.flag)' (expected \(valueName))")
        }
        if parsed.values[name] != nil, !option.isRepeatable {
            throw parsed.error(.duplicateOption, "option '\(option.flag)' given more than once")
        }
        parsed.values[name, default: []].append(value)
    }

    private static func checkPositionals(_ parsed: ParsedArguments) throws(UsageError) {
        let declared = parsed.command.positionals
        if parsed.positionals.count > declared.count {
            let extra = parsed.positionals[declared.count]
            throw parsed.error(.unexpectedArgument, "unexpected argument '\(extra)'")
        }
        for spec in declared.dropFirst(parsed.positionals.count) where spec.isRequired {
            throw parsed.error(.missingArgument, "missing argument \(spec.name)")
        }
    }

    /// The error for `word` naming no subcommand of `parent`, with the nearest name suggested.
    static func unknownCommand(_ word: String, under parent: CommandSpec) -> UsageError {
        let prefix = parent.path.map { $0 + " " }.joined()
        let names = parent.subcommands.compactMap(\.path.last)
        var message = "unknown command '\(prefix)\(word)'"
        if let suggestion = Suggestion.nearest(to: word, in: names) {
            message += "; did you mean \(prefix)\(suggestion)?"
        }
        return UsageError(.unknownCommand, message, command: parent.path)
    }
}
