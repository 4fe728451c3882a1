extension CommandSpec {
    /// The synopsis block: `Usage: ` before the first line, the other lines aligned under it.
    public var usageText: String {
        var lines: [String] = []
        for (index, line) in usage.enumerated() {
            lines.append((index == 0 ? "Usage: " : "       ") + line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The full help printed by `--help`: usage, summary, arguments, options and subcommands
    /// (commands first in the overview), notes.
    /// Its first line is always `Usage: <first usage line>`.
    public var helpText: String {
        var text = usageText + "\n" + summary + "\n"
        if !positionals.isEmpty {
            text += "\nArguments:\n"
            text += Self.table(positionals.map { ($0.name, $0.help) })
        }
        let helpRow = ("-h, --help", "Show this help and exit.")
        let optionsBlock = "\nOptions:\n" + Self.table(options.map { ($0.synopsis, $0.help + ($0.defaultValue.map { " Default: \($0)." } ?? "")) } + [helpRow])
        var commandsBlock = ""
        if !subcommands.isEmpty {
            commandsBlock = "\n" + (path.isEmpty ? "Commands:" : "Subcommands:") + "\n"
            commandsBlock += Self.table(runnableDescendants.map { ($0.displayName, $0.summary) })
        }
        // The overview leads with the commands; a command leads with its own options.
        text += path.isEmpty ? commandsBlock + optionsBlock : optionsBlock + commandsBlock
        for note in notes {
            text += "\n" + note + "\n"
        }
        return text
    }

    /// Every runnable command below this one, depth first in declaration order.
    var runnableDescendants: [CommandSpec] {
        subcommands.flatMap { ($0.isRunnable ? [$0] : []) + $0.runnableDescendants }
    }

    /// Two aligned columns, each row indented by two spaces.
    static func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        var text = ""
        for (left, right) in rows {
            let padding = String(repeating: " ", count: width - left.count + 3)
            text += "  " + left + padding + right + "\n"
        }
        return text
    }
}
