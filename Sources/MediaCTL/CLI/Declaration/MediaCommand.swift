/// One `mediactl` command: its typed options, their declaration, and what it does.
///
/// A conforming type is the whole command in one file: its stored properties are the options, its
/// ``declaration`` names each option once (flag, value placeholder, help, how the value is read) bound to
/// the property by key path, and ``run(in:context:)`` performs it. ``CommandTree/commands`` lists the types;
/// help, parsing and dispatch all follow from that list.
public protocol MediaCommand: Sendable, Hashable {
    /// The path, help text and options of the command.
    static var declaration: CommandDeclaration<Self> { get }

    /// Performs the command with `environment`'s transport, clock and clients; results go to
    /// `context.stdout`, diagnostics to `context.stderr`.
    /// - Returns: the exit status (``ExitCode``): 0 ok; 1 violations, a failed check or a failed answer;
    ///   2 unusable input.
    func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode
}

extension MediaCommand {
    /// The help and parse declaration of the command (``CommandSpec``), without its subcommands.
    static var spec: CommandSpec { declaration.spec }

    /// The words after `mediactl` that invoke the command.
    static var path: [String] { declaration.spec.path }
}
