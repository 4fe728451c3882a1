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
public struct ServeCommand: Sendable {
    /// Builds the admin endpoint (`POST /_mediactl/purge`) for a running service and its admin token.
    public typealias AdminFactory = @Sendable (MediaService, _ adminToken: String) -> AdminHTTPHandler.Handler

    /// Tunables of a serve run.
    public struct Configuration: Sendable {
        /// Time between two sweeps of expired entries. Default: 60 s.
        public var sweepInterval: Duration
        /// Server limits and timeouts; `host` and `port` come from `--listen`. Default: the
        /// ``HTTPServer/HTTPServer/Configuration`` defaults (10 s header, 55 s idle, 10 s drain timeouts).
        public var server: HTTPServer.Configuration
        /// The origin transport. Default: `nil`, ``MediaCurl/DefaultOriginFetcher/make(note:)`` (a
        /// ``MediaCurl/CurlOriginFetcher``; when libcurl cannot be used, every fetch fails with a 502 naming why).
        public var fetcher: (any OriginFetching)?
        /// The admin endpoint. Default: `nil` (`POST /_mediactl/purge` answers 404).
        public var admin: AdminFactory?
        /// What ends the run, returning its name for the last message (such as `SIGTERM`).
        /// Default: `nil`, the first SIGINT or SIGTERM (``MediaServer/SignalWatcher``).
        public var until: (@Sendable () async -> String)?
        /// Adjusts the service's configuration (state directory already set), such as its clock.
        /// Default: no change.
        public var service: @Sendable (inout MediaService.Configuration) -> Void
        /// The glibc malloc arena cap set at start (``HTTPServer/MallocTuning/limitArenas(to:)``), so
        /// memory freed by one thread (bodies of answered requests) is reused by the others instead
        /// of staying resident in per-thread arenas; `nil` leaves glibc's default (8 per core). Not
        /// applied when the environment sets `MALLOC_ARENA_MAX` (glibc's own setting wins).
        /// Default: 1 (docs/benchmarks.md, "Memory goal, event-loop server"; glibc's per-thread caches keep
        /// small allocations lock-free, and the hit path allocates little).
        public var mallocArenaLimit: Int?
        /// How often freed heap memory is returned to the kernel (``HTTPServer/MallocTuning/trim()``)
        /// while serving, so cache churn (evicted bodies, origin-fetch buffers) does not stay resident
        /// in arenas that threads started before the cap keep using; `nil` never trims. Default: 1 s
        /// (docs/benchmarks.md, "Memory goal, event-loop server").
        public var mallocTrimInterval: Duration?
        /// Queue size and write interval of `--access-log`. Default: ``AccessLog/Configuration/init(capacity:writeInterval:startsWriter:)``.
        public var accessLog: AccessLog.Configuration = AccessLog.Configuration()

        public init(
            sweepInterval: Duration = .seconds(60), server: HTTPServer.Configuration = HTTPServer.Configuration(),
            fetcher: (any OriginFetching)? = nil, admin: AdminFactory? = nil,
            until: (@Sendable () async -> String)? = nil,
            service: @escaping @Sendable (inout MediaService.Configuration) -> Void = { _ in },
            mallocArenaLimit: Int? = 1, mallocTrimInterval: Duration? = .seconds(1)
        ) {
            self.sweepInterval = sweepInterval
            self.server = server
            self.fetcher = fetcher
            self.admin = admin
            self.until = until
            self.service = service
            self.mallocArenaLimit = mallocArenaLimit
            self.mallocTrimInterval = mallocTrimInterval
        }
    }

    /// The parsed command line.
    public let options: ServeOptions
    /// The tunables.
    public let configuration: Configuration

    public init(options: ServeOptions, configuration: Configuration = Configuration()) {
        self.options = options
        self.configuration = configuration
    }

    /// Runs until the stop signal.
    /// - Returns: 0 after a clean stop; 2 for bad policies, a bad `--origin`, an unusable state
    ///   directory or listen address; 1 when signals cannot be handled.
    public func run(context: CommandContext) async -> ExitCode {
        do {
            return try await serve(context: context)
        } catch {
            return context.fail(error)
        }
    }

    /// The HTTP server's configuration for this run: ``Configuration/server`` with `--listen`'s
    /// port, `host` (the numeric address `--listen` resolved to) and `--event-loops` when given.
    func serverConfiguration(host: String, underscoreNames: UnderscoreFieldNames? = nil) -> HTTPServer.Configuration {
        var server = configuration.server
        server.host = host
        server.parser.underscoreNames = underscoreNames
        server.uncappedPeers.formUnion(options.fronts)
        server.port = Int(options.listen.port)
        if let loops = options.eventLoops { server.eventLoopCount = loops }
        return server
    }

    private func serve(context: CommandContext) async throws(CommandError) -> ExitCode {
        if let limit = configuration.mallocArenaLimit, getenv("MALLOC_ARENA_MAX") == nil {
            MallocTuning.limitArenas(to: limit)  // an operator's MALLOC_ARENA_MAX wins
        }
        let loaded = try ServiceSetup.loadPoliciesWithDigest(options.policiesDirectory, overrides: options.origins)
        // The service log (docs/operations.md, "Service log"): what serve says on stderr once it runs.
        let log = ServiceLog(format: options.logFormat, level: options.logLevel, sink: { [context] line in
            context.stderr.writeLine(line)
        })
        let host = try ListenResolver.numericHost(options.listen.host)
        let adminHost = try options.adminListen.map { address throws(CommandError) in try ListenResolver.numericHost(address.host) }
        let adminToken: String
        if let file = options.adminTokenFile {
            adminToken = try AdminTokenFile.read(file)
        } else {
            do {
                adminToken = try ServeStateFile.makeAdminToken()
            } catch {
                throw CommandError(.adminToken, "cannot generate the admin token: \(error)", exitCode: .failure)
            }
        }
        // One watcher for every signal serve handles: stop, reload, and reopen the access log.
        var signals: SignalWatcher?
        if configuration.until == nil {
            signals = try Self.watch([SIGINT, SIGTERM, SIGHUP] + (options.accessLog == nil ? [] : [SIGUSR1]))
        }
        let underscoreNames = UnderscoreFieldNames(loaded.policies.forwardedUnderscoreNames)
        let publicServer = serverConfiguration(host: host, underscoreNames: underscoreNames)
        let serverConfiguration = MediaServer.Configuration(
            server: publicServer,
            admin: options.adminListen.map { MediaServer.Configuration.admin(like: publicServer, host: adminHost ?? $0.host, port: Int($0.port)) },
            sweepInterval: configuration.sweepInterval, trimInterval: configuration.mallocTrimInterval)
        // A port in use fails now, before the state directory and its audit log are opened (no start/stop records).
        do throws(MediaServerError) {
            try MediaServer.probe(serverConfiguration)
        } catch {
            signals?.cancel()
            throw listenError(error)
        }
        // So does an access log that cannot be opened (opened here, once).
        let accessLogFile: AccessLog.Destination?
        do {
            accessLogFile = try openAccessLogFile()
        } catch {
            signals?.cancel()
            throw error
        }
        let service: MediaService
        do {
            service = try ServiceSetup.openService(
                policies: loaded.policies, stateDirectory: options.stateDirectory,
                fetcher: configuration.fetcher ?? DefaultOriginFetcher.make()
            ) { service in
                service.policyDigest = loaded.digest
                // The audit writer's failures and recoveries, once each, as the service's other events.
                service.auditEvents = { event in 
                    if case .recovered = event { log.log(.info, event.message) } else { log.log(.error, event.message) }
                 }
                configuration.service(&service)
            }
        } catch {
            signals?.cancel()
            accessLogFile?.close()
            throw error
        }
        let accessLog = openAccessLog(accessLogFile, service: service)
        let (directory, overrides) = (options.policiesDirectory, options.origins)
        let reloader = PolicyReloader(
            service: service, directory: directory,
            read: { ServiceSetup.readPolicies(directory, overrides: overrides).map { ($0.policies, $0.digest) } },
            log: log, underscoreNames: underscoreNames)
        let server = MediaServer(
            service: service, configuration: serverConfiguration, purge: configuration.admin?(service, adminToken),
            reload: ReloadEndpoint.handler(reloader: reloader, adminToken: adminToken), accessLog: accessLog, log: log)
        let ports: MediaServer.BoundPorts
        do {
            ports = try server.start()
        } catch {
            signals?.cancel()
            await server.stop()
            throw listenError(error)
        }
        let bound = ListenAddress(host: options.listen.host, port: UInt16(ports.port))
        var adminBound: ListenAddress?
        if let address = options.adminListen, let adminPort = ports.adminPort {
            adminBound = ListenAddress(host: address.host, port: UInt16(adminPort))
        }
        do {
            try ServeStateFile(pid: getpid(), listen: bound.description, admin: adminBound?.description ?? ServeStateFile.adminOff,
                                adminToken: adminToken)
                .write(stateDirectory: options.stateDirectory)
        } catch {
            signals?.cancel()
            await server.stop()
            throw error
        }
        context.stdout.writeLine(
            "mediactl: serving on http://\(bound) (state: \(options.stateDirectory), policies: \(options.policiesDirectory))")
        if let adminBound {
            context.stdout.writeLine("mediactl: admin on http://\(adminBound)")
            if let adminHost, !Self.isLoopback(adminHost) {
                log.log(.warn, Self.publicAdminWarning(adminBound))
            }
        } else {
            context.stdout.writeLine("mediactl: no admin listener (--admin-listen off)")
        }
        let trigger: MediaServer.Trigger = configuration.until.map { .returns($0) } ?? .signals(signals!) { number in
            switch number {
            case SIGHUP: _ = await OffPool.run { reloader.reload(trigger: "SIGHUP") }
            case SIGUSR1: Self.reopen(accessLog, log: log)
            default: break
            }
        }
        let reason = await server.run(until: trigger)
        await server.stop { reloader.waitForReloads() }  // a reload in progress finishes before the stores stop
        ServeStateFile.remove(stateDirectory: options.stateDirectory)
        log.log(.info, "\(reason): stopped after draining in-flight requests")
        return .success
    }

    /// A ``MediaServer/SignalWatcher`` of `signals`.
    /// - Throws: ``CommandError`` `signal-handling` (exit 1) with the watcher's message.
    static func watch(_ signals: [Int32]) throws(CommandError) -> SignalWatcher {
        do {
            return try SignalWatcher(signals)
        } catch {
            throw CommandError(.signalHandling, error.message, exitCode: .failure)
        }
    }

    /// Whether the numeric address `host` is a loopback address (`127.0.0.0/8`, `::1`, `::ffff:127.x.x.x`).
    static func isLoopback(_ host: String) -> Bool {
        host.hasPrefix("127.") || host == "::1" || host.lowercased().hasPrefix("::ffff:127.")
    }

    /// The warning printed for an admin listener on a non-loopback address.
    static func publicAdminWarning(_ address: ListenAddress) -> String {
        "warning: the admin listener \(address) is not a loopback address: /_mediactl/health, /_mediactl/ready and /_mediactl/metrics "
            + "are reachable from the network (purge and reload still require the admin token)"
    }

    /// ``listenError(_:address:what:)`` for the listener `error` names: `--listen`'s or `--admin-listen`'s.
    func listenError(_ error: MediaServerError) -> CommandError {
        switch error.listener {
        case .public: Self.listenError(error.error, address: options.listen, what: "--listen")
        case .admin: Self.listenError(error.error, address: options.adminListen ?? options.listen, what: "--admin-listen")
        }
    }

    /// `cannot listen on 127.0.0.1:8080 (--listen): Address already in use`, or
    /// `cannot listen on 127.0.0.1:9091 (--admin-listen): Address already in use`: the flag that chose the address.
    static func listenError(_ error: HTTPServerError, address: ListenAddress, what: String? = nil) -> CommandError {
        let reason = error.errno != 0 ? SystemErrorText.describe(error.errno) : error.message
        let name = what.map { "\(address) (\($0))" } ?? "\(address)"
        return CommandError(.listenFailed, "cannot listen on \(name): \(reason)", exitCode: .unusableInput)
    }
}
