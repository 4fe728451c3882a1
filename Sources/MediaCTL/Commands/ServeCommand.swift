import MediaCore
import Foundation
import HTTPServer
import MediaAudit
import MediaCurl
import MediaPolicy
import MediaServer
import MediaService

#if canImport(Glibc)
    import Glibc
#endif

/// `mediactl serve`: the media service over HTTP until SIGINT or SIGTERM (docs/cli.md, `mediactl serve`;
/// docs/service-behaviour.md).
///
/// Steps: load the policies (exit 2 with every ``MediaPolicy/PolicyError``), apply `--origin`
/// (exit 2 on an unknown route, naming it and the known ones), open the ``MediaService`` on
/// `--state-dir` (exit 2 when its audit log is locked by another process), bind `--listen` and
/// `--admin-listen` (exit 2 when a port is in use; a non-loopback admin address prints a warning), open
/// `--access-log` (exit 2 when it cannot be opened; `SIGUSR1` reopens it), write
/// `<state>/serve.json` (0600), print `mediactl: serving on http://HOST:PORT (state: DIR, policies: DIR)` and
/// `mediactl: admin on http://HOST:PORT` (or `mediactl: no admin listener (--admin-listen off)`), sweep expired entries every
/// ``Configuration/sweepInterval``. When the audit log cannot be written, and when it is written again, one line
/// each on stderr (``MediaAudit/AuditWriterEvent/message``). On the stop signal: stop accepting, let in-flight
/// requests finish, ``MediaService/MediaService/stop()`` (shreds sealed objects, writes `stop`; while the audit log
/// cannot be written, says so on stderr instead), remove `serve.json`, exit 0.
public struct ServeCommand: MediaCommand {
    /// `--listen HOST:PORT`. Default: ``ListenAddress/default`` (127.0.0.1:8080).
    public var listen: ListenAddress = .default
    /// `--admin-listen HOST:PORT|off`: where `/_mediactl/health`, `/_mediactl/metrics`, `POST /_mediactl/purge`
    /// and `POST /_mediactl/admin/reload` are answered (docs/operations.md, "Admin listener"); `nil` (`off`): no
    /// admin listener. Default: ``ListenAddress/adminDefault`` (127.0.0.1:9091).
    public var adminListen: ListenAddress? = .adminDefault
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String = CommandDefaults.policiesDirectory
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory
    /// Every `--origin ROUTE=URL`, in command-line order, at most one per route. Default: empty.
    public var origins: [OriginOverride] = []
    /// `--event-loops N`: how many event-loop threads serve the connections, 1 to
    /// ``maxEventLoops``. Default: `nil`, one per online CPU
    /// (``HTTPServer/HTTPServer/Configuration/defaultEventLoopCount``).
    public var eventLoops: Int?
    /// `--access-log PATH|-`: where the access log goes (`-`: standard output). Default: `nil`, no access log.
    public var accessLog: String?
    /// Every `--front ADDR`: front proxies exempt from the per-address connection cap (256), canonical
    /// (`127.0.0.1`, `[::1]`). Default: none.
    public var fronts: [String] = []
    /// `--admin-token-file FILE`: the admin token the admin listener accepts, read from a file of mode 0600
    /// (``AdminTokenFile``), so replicas share a token the deployment provides. Default: `nil`, a new random token
    /// at every start (written to `serve.json`).
    public var adminTokenFile: String?
    /// `--log-format text|json`: how the service log (standard error) is written. Default: `text`.
    public var logFormat: ServiceLog.Format = .text
    /// `--log-level debug|info|warn|error`: the least severe service log lines written. Default: `info`.
    public var logLevel: ServiceLog.Level = .info

    /// `--ready-min-free-bytes N`: `/_mediactl/ready` fails its `diskSpace` check while the state directory's file
    /// system has fewer than N bytes free; `0` turns the check off. Default: `nil`,
    /// ``MediaService/MediaService/Configuration/readinessMinimumFreeBytes`` (268,435,456, 256 MiB).
    public var readyMinimumFreeBytes: Int?

    /// The largest accepted `--event-loops` value.
    public static let maxEventLoops = 256

    public static let declaration = CommandDeclaration<Self>(
        path: ["serve"],
        summary: "Run the media service over HTTP until interrupted.",
        arguments: [
            .parsed(
                "listen", valueName: "HOST:PORT",
                help: "Address to listen on; IPv6 as [::1]:PORT, port 0 picks a free one.",
                \.listen, showing: { $0.description }, parse: ListenAddress.parse),
            .parsed(
                "admin-listen", valueName: "HOST:PORT|off",
                help: "Address of the admin listener (/_mediactl/health, /_mediactl/ready, /_mediactl/metrics, purge, reload); off: none.",
                \.adminListen, showing: { $0?.description ?? "off" }, parse: ListenAddress.parseOrOff),
            .policies(\.policiesDirectory),
            .stateDirectory(\.stateDirectory),
            .origins(
                help: "Replace the origin base URL (http or https) of route ROUTE. Repeatable, once per route.",
                \.origins),
            .wholeNumber(
                "event-loops", in: 1...maxEventLoops,
                help: "Event-loop threads serving connections, 1 to 256. Default: one per online CPU.", \.eventLoops),
            .text(
                "access-log", valueName: "PATH|-",
                help: "Append one JSON line per request to PATH (- for standard output); SIGUSR1 reopens it. Default: none.",
                \.accessLog),
            .repeated(
                "front", valueName: "ADDR",
                help: "Numeric address of a front proxy, exempt from the cap of 256 connections per client address. Repeatable.",
                \.fronts, parse: { FrontAddress.parse($0).map(\.text) }),
            .text(
                "admin-token-file", valueName: "FILE",
                help: "Accept the admin token in FILE (mode 0600, 32 to 256 b64token characters) instead of a new one at every start.",
                \.adminTokenFile),
            .parsed(
                "log-format", valueName: "text|json",
                help: "How the service log on standard error is written: text lines, or JSON Lines.",
                \.logFormat, showing: \.rawValue, parse: { text in
                    ServiceLog.Format(rawValue: text).map { .success($0) } ?? .failure("expected text or json")
                }),
            .parsed(
                "log-level", valueName: "LEVEL",
                help: "The least severe service log lines written: debug (every request), info, warn or error.",
                \.logLevel, showing: \.rawValue, parse: { text in
                    ServiceLog.Level(rawValue: text).map { .success($0) } ?? .failure("expected debug, info, warn or error")
                }),
            .wholeNumber(
                "ready-min-free-bytes", in: 0...Int(Int64.max),
                help: "Readiness fails while the state directory's file system has fewer than N bytes free; 0: never. Default: 268435456 (256 MiB).",
                \.readyMinimumFreeBytes),
        ],
        notes: [
            "SIGHUP re-reads the policies without a restart (as 'mediactl reload' does); an invalid set keeps the policies in force.",
            CommandTree.exitCodes(
                ok: "stopped by SIGINT or SIGTERM", failure: "an internal failure (admin token, signal handling)",
                unusable: "unreadable file, bad policy, a state directory that cannot be created or used, a port in use"),
        ],
        defaults: { Self() })

    /// Serves until ``CommandEnvironment/stop`` (default: SIGINT or SIGTERM), answering `POST /_mediactl/purge`
    /// and reload on the admin listener with the admin token written to `<state>/serve.json`.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        var configuration = ServeCommand.Configuration(
            fetcher: environment.fetcher, admin: { service, adminToken in
                AdminEndpoint.handler(service: service, adminToken: adminToken)
            }, until: environment.stop)
        let clock = environment.clock, minimumFree = readyMinimumFreeBytes
        configuration.service = { service in
            if let clock { service.clock = clock.now }
            if let minimumFree { service.readinessMinimumFreeBytes = Int64(minimumFree) }
        }
        return await run(context: context, configuration: configuration)
    }

    /// Runs until the stop signal.
    /// - Returns: 0 after a clean stop; 2 for bad policies, a bad `--origin`, an unusable state
    ///   directory or listen address; 1 when signals cannot be handled.
    func run(context: CommandContext, configuration: Configuration) async -> ExitCode {
        do {
            return try await serve(context: context, configuration: configuration)
        } catch {
            return context.fail(error)
        }
    }

    /// The HTTP server's configuration for this run: ``Configuration/server`` with `--listen`'s
    /// port, `host` (the numeric address `--listen` resolved to) and `--event-loops` when given.
    func serverConfiguration(
        host: String, configuration: Configuration = Configuration(), underscoreNames: UnderscoreFieldNames? = nil
    ) -> HTTPServer.Configuration {
        var server = configuration.server
        server.host = host
        server.parser.underscoreNames = underscoreNames
        server.uncappedPeers.formUnion(fronts)
        server.port = Int(listen.port)
        if let loops = eventLoops { server.eventLoopCount = loops }
        return server
    }
}
