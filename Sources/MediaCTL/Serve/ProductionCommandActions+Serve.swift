import HTTPServer
import MediaService

/// `serve`, `demo`, `fetch` and `inspect` of the production actions (the other four are in
/// `Commands/ProductionCommandActions.swift`). `serve` answers `POST /_mediactl/purge` through
/// ``AdminEndpoint`` with the admin token it writes to `<state>/serve.json`.
extension ProductionCommandActions {
    public func serve(_ options: ServeOptions, context: CommandContext) async -> ExitCode {
        await ServeActions.serve(options, context: context) { service, adminToken in
            AdminEndpoint.handler(service: service, adminToken: adminToken)
        }
    }

    public func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode {
        await ServeActions.demo(options, context: context)
    }

    public func fetch(_ options: FetchOptions, context: CommandContext) async -> ExitCode {
        await ServeActions.fetch(options, context: context)
    }

    public func inspect(_ options: InspectOptions, context: CommandContext) async -> ExitCode {
        await ServeActions.inspect(options, context: context)
    }
}
