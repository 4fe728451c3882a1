/// The checks across options that the declaration states (``OptionSpec/isRequired``, ``OptionGroup``,
/// ``OptionSpec/needs``), made once each argument's own value was read.
extension ParsedArguments {
    /// Checks the rules in declaration order: a required option, a group at its first member, a needed option
    /// at the one that needs it.
    /// - Throws: ``UsageError`` `missing-argument` (`purge requires --name VALUE`) or `conflicting-options`:
    ///   `purge requires one of --route NAME, --subject SUB or --all`, `options --route and --all cannot be
    ///   used together`, `option --soft needs --tag`.
    func checkOptionRules() throws(UsageError) {
        var groupsChecked: Set<OptionGroup> = []
        for option in command.options {
            if let needed = option.needs, isGiven(option), !isGiven(named: needed) {
                throw error(.conflictingOptions, "option \(option.flag) needs --\(needed)")
            }
            guard let group = option.group, groupsChecked.insert(group).inserted else { continue }
            let members = command.options.filter { $0.group == group }
            let given = members.filter(isGiven).map(\.flag)
            if given.isEmpty, group.isRequired {
                let list = members.map(\.synopsis)
                throw error(
                    .conflictingOptions,
                    "\(command.displayName) requires one of " + Self.list(list, conjunction: "or"))
            }
            if given.count > 1 {
                throw error(.conflictingOptions, "options " + Self.list(given, conjunction: "and") + " cannot be used together")
            }
        }
    }

    /// Whether `option` is on the command line.
    func isGiven(_ option: OptionSpec) -> Bool {
        option.isFlag ? flag(option.name) : values[option.name] != nil
    }

    private func isGiven(named name: String) -> Bool {
        command.option(named: name).map(isGiven) ?? false
    }

    /// `a, b and c`.
    private static func list(_ items: [String], conjunction: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
    }
}
