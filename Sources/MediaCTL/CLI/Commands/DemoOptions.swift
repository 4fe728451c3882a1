/// The options of `mediactl demo`.
public struct DemoOptions: MediaCommand {
    /// `--keep-serving`: keep the service running after the walkthrough. Default: `false`.
    public var keepServing: Bool

    public init(keepServing: Bool = false) {
        self.keepServing = keepServing
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["demo"],
        summary: "Run an embedded origin with the bundled sample images and the default policies, and show every tier.",
        arguments: [.flag("keep-serving", help: "Keep the service running after the walkthrough.", \.keepServing)],
        notes: [CommandTree.exitCodes(ok: "every step as expected and the audit clean", failure: "a step or the audit failed")],
        defaults: { DemoOptions() })

    /// Runs the walkthrough (``DemoCommand``); with `--keep-serving`, until ``CommandEnvironment/stop``.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await DemoCommand(options: self, configuration: .init(until: environment.stop)).run(context: context)
    }
}
