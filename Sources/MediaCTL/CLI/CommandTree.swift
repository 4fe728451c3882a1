/// Every `mediactl` command, as a list of ``MediaCommand`` types, and the help tree built from it
/// (docs/cli.md). Adding a command is one file and one line here; adding an option is one line in its
/// command's file.
public enum CommandTree {
    /// The commands in help order. A command whose path has two words is a subcommand of the first word:
    /// of a runnable command (`audit verify`) or of a ``groups`` entry (`policy check`).
    public static let commands: [any MediaCommand.Type] = [
        ServeCommand.self, DemoCommand.self, FetchCommand.self, InspectCommand.self,
        AuditCommand.self, AuditVerifyCommand.self, AuditPruneCommand.self, AuditPublicKeyCommand.self,
        AuditCheckpointCommand.self, AuditProveCommand.self, AuditConsistencyCommand.self, AuditVerifyReceiptCommand.self, AuditExportCommand.self,
        PolicyCheckCommand.self, PurgeCommand.self, ReloadCommand.self, WarmCommand.self, SignCommand.self,
    ]

    /// Words that only group subcommands (`policy` requires `check`); placed where their first
    /// subcommand is listed.
    static let groups = [
        CommandSpec(
            path: ["policy"],
            summary: "Work with policy files.",
            isRunnable: false,
            notes: [exitCodes])
    ]

    /// `mediactl help [COMMAND [SUBCOMMAND]]`, answered by ``MediaCTLMain`` itself.
    static let help = CommandSpec(
        path: ["help"],
        summary: "Show the overview, or the help of a command.",
        arguments: [
            .positional(PositionalSpec("COMMAND", required: false, help: "The command to describe, such as audit.")),
            .positional(PositionalSpec("SUBCOMMAND", required: false, help: "Its subcommand, such as verify.")),
        ])

    /// The root: `mediactl` itself, whose help is the overview.
    public static let root: CommandSpec = {
        var nodes = commands.map { $0.spec }
        for group in groups {
            let first = nodes.firstIndex { $0.path.count > group.path.count && $0.path.starts(with: group.path) }
            nodes.insert(group, at: first ?? nodes.endIndex)
        }
        nodes.append(help)
        let top = CommandSpec(
            path: [],
            summary: "mediactl \(MediaCTLMain.version): a privacy-tiered, authenticated media cache.",
            arguments: [.option(OptionSpec("version", help: "Print the version and exit."))],
            notes: [
                "Defaults: --policies \(CommandDefaults.policiesDirectory), --state-dir \(CommandDefaults.stateDirectory) "
                    + "(or $\(CommandDefaults.stateDirectoryVariable)).",
                exitCodes,
                "Run 'mediactl <command> --help' for the options of a command.",
            ])
        return attachingChildren(to: top, from: nodes)
    }()

    /// The command type whose path is `path`, or `nil` (the root, `help`, a group).
    static func command(at path: [String]) -> (any MediaCommand.Type)? {
        commands.first { $0.path == path }
    }

    /// `node` with its subcommands: the entries of `nodes` one word below it, each with its own, in order.
    private static func attachingChildren(to node: CommandSpec, from nodes: [CommandSpec]) -> CommandSpec {
        let children = nodes.filter { $0.path.count == node.path.count + 1 && $0.path.starts(with: node.path) }
        return CommandSpec(
            path: node.path, summary: node.summary, arguments: node.arguments, subcommands: children.map { attachingChildren(to: $0, from: nodes) },
            isRunnable: node.isRunnable, notes: node.notes)
    }

    /// The exit-status line of the overview and of groups.
    static let exitCodes =
        "Exit status: 0 ok, 1 violations or failed check, 2 unusable input (unreadable file, bad policy), 64 usage error."

    /// The exit-status line of one command: what 0 and 1 mean for it (`nil`: 1 is not used).
    static func exitCodes(ok: String, failure: String?,
                          unusable: String = "unreadable file, bad policy, missing state directory") -> String {
        "Exit status: 0 \(ok)" + (failure.map { ", 1 \($0)" } ?? "") + ", 2 unusable input (\(unusable)), 64 usage error."
    }
}
