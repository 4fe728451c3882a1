/// The actions of `mediactl serve`, `demo`, `fetch` and `inspect`, for wiring into
/// ``ClosureCommandActions`` (the other commands live in `Commands/`).
///
/// ```swift
/// let actions = ClosureCommandActions(
///     serve: ServeActions.serve, demo: ServeActions.demo, fetch: ServeActions.fetch, inspect: ServeActions.inspect)
/// ```
public struct ServeActions: Sendable {
    /// `mediactl serve` with the default configuration (no admin endpoint).
    public static func serve(_ options: ServeOptions, context: CommandContext) async -> ExitCode {
        await ServeCommand(options: options).run(context: context)
    }

    /// `mediactl serve` with an admin endpoint (`POST /_mediactl/purge`) built for the running
    /// service and its admin token.
    public static func serve(
        _ options: ServeOptions, context: CommandContext, admin: @escaping ServeCommand.AdminFactory
    ) async -> ExitCode {
        await ServeCommand(options: options, configuration: .init(admin: admin)).run(context: context)
    }

    /// `mediactl demo [--keep-serving]`.
    public static func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode {
        await DemoCommand(options: options).run(context: context)
    }

    /// `mediactl fetch PATH`.
    public static func fetch(_ options: FetchOptions, context: CommandContext) async -> ExitCode {
        await FetchCommand(options: options).run(context: context)
    }

    /// `mediactl inspect URL`.
    public static func inspect(_ options: InspectOptions, context: CommandContext) async -> ExitCode {
        await InspectCommand(options: options).run(context: context)
    }

    /// The four actions wired into ``ClosureCommandActions``; the other commands keep their defaults.
    public static var actions: ClosureCommandActions {
        ClosureCommandActions(
            serve: { await serve($0, context: $1) }, demo: { await demo($0, context: $1) },
            fetch: { await fetch($0, context: $1) }, inspect: { await inspect($0, context: $1) })
    }
}
