import Foundation
import HTTPServer
import MediaAudit
import MediaPolicy
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
        /// The origin transport. Default: `nil`, ``MediaService/DefaultOriginFetcher/make(note:)`` (a
        /// ``MediaService/CurlOriginFetcher``; when libcurl cannot be used, every fetch fails with a 502 naming why).
        public var fetcher: (any OriginFetching)?
        /// The admin endpoint. Default: `nil` (`POST /_mediactl/purge` answers 404).
        public var admin: AdminFactory?
        /// What ends the run, returning its name for the last message (such as `SIGTERM`).
        /// Default: `nil`, the first SIGINT or SIGTERM (``ShutdownSignals``).
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

    /// The admin listener's configuration: ``Configuration/server``'s limits and timeouts on `host` and
    /// `--admin-listen`'s port, with one event loop (its own thread: a busy public port never delays a
    /// health check) and at most 64 connections.
    func adminServerConfiguration(host: String, port: UInt16) -> HTTPServer.Configuration {
        var server = configuration.server
        server.host = host
        server.port = Int(port)
        server.eventLoopCount = 1
        server.maxConnections = min(server.maxConnections, 64)
        return server
    }

    private func serve(context: CommandContext) async throws(CommandError) -> ExitCode {
        if let limit = configuration.mallocArenaLimit, getenv("MALLOC_ARENA_MAX") == nil {
            MallocTuning.limitArenas(to: limit)  // an operator's MALLOC_ARENA_MAX wins
        }
        let loaded = try ServiceSetup.loadPoliciesWithDigest(options.policiesDirectory, overrides: options.origins)
        let host = try ListenResolver.numericHost(options.listen.host)
        let adminHost = try options.adminListen.map { address throws(CommandError) in try ListenResolver.numericHost(address.host) }
        let adminToken: String
        do {
            adminToken = try ServeStateFile.makeAdminToken()
        } catch {
            throw CommandError(.adminToken, "cannot generate the admin token: \(error)", exitCode: .failure)
        }
        var signals: ShutdownSignals?
        var hangups: HangupSignals?
        if configuration.until == nil {
            signals = try ShutdownSignals([SIGINT, SIGTERM])
            do {
                hangups = try HangupSignals()
            } catch {
                signals?.cancel()
                throw error
            }
        }
        let service: MediaService
        do {
            service = try ServiceSetup.openService(
                policies: loaded.policies, stateDirectory: options.stateDirectory,
                fetcher: configuration.fetcher ?? DefaultOriginFetcher.make()
            ) { service in
                service.policyDigest = loaded.digest
                // The audit writer's failures and recoveries, once each, as the service's other events.
                service.auditEvents = { [context] event in context.diagnose(event.message) }
                configuration.service(&service)
            }
        } catch {
            signals?.cancel()
            hangups?.cancel()
            throw error
        }
        let accessLog: AccessLogSetup?
        do {
            accessLog = try openAccessLog(service: service, context: context)
        } catch {
            signals?.cancel()
            hangups?.cancel()
            await service.stop()
            throw error
        }
        let underscoreNames = UnderscoreFieldNames(loaded.policies.forwardedUnderscoreNames)
        let reloader = PolicyReloader(
            service: service, directory: options.policiesDirectory, overrides: options.origins, context: context,
            underscoreNames: underscoreNames)
        let publicServer = HTTPServer(configuration: serverConfiguration(host: host, underscoreNames: underscoreNames),
                                      handler: MediaHTTPHandler(service: service, accessLog: accessLog?.log))
        let adminServer = options.adminListen.map { address in
            let handler = AdminHTTPHandler(
                service: service, purge: configuration.admin?(service, adminToken),
                reload: ReloadEndpoint.handler(reloader: reloader, adminToken: adminToken), accessLog: accessLog?.log)
            handler.publicServer.attach(publicServer)
            return HTTPServer(configuration: adminServerConfiguration(host: adminHost ?? address.host, port: address.port),
                              handler: handler)
        }
        func stopAll() async {
            signals?.cancel()
            hangups?.cancel()
            await OffPool.run {
                publicServer.stop()
                adminServer?.stop()
            }
            accessLog?.close()
            await service.stop()
        }
        let port: Int
        do {
            port = try publicServer.start()
        } catch {
            await stopAll()
            throw Self.listenError(error, address: options.listen)
        }
        var adminBound: ListenAddress?
        if let adminServer, let address = options.adminListen {
            do {
                adminBound = ListenAddress(host: address.host, port: UInt16(try adminServer.start()))
            } catch {
                await stopAll()
                throw Self.listenError(error, address: address, what: "--admin-listen")
            }
        }
        let bound = ListenAddress(host: options.listen.host, port: UInt16(port))
        do {
            try ServeStateFile(pid: getpid(), listen: bound.description, admin: adminBound?.description ?? ServeStateFile.adminOff,
                                adminToken: adminToken)
                .write(stateDirectory: options.stateDirectory)
        } catch {
            await stopAll()
            throw error
        }
        context.stdout.writeLine(
            "mediactl: serving on http://\(bound) (state: \(options.stateDirectory), policies: \(options.policiesDirectory))")
        if let adminBound {
            context.stdout.writeLine("mediactl: admin on http://\(adminBound)")
            if let adminHost, !Self.isLoopback(adminHost) {
                context.diagnose(Self.publicAdminWarning(adminBound))
            }
        } else {
            context.stdout.writeLine("mediactl: no admin listener (--admin-listen off)")
        }
        hangups?.start { _ = reloader.reload(trigger: "SIGHUP") }
        let interval = configuration.sweepInterval
        let sweeper = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                service.sweep()
            }
        }
        let trimmer = configuration.mallocTrimInterval.map { every in
            Task.detached {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: every) } catch { return }
                    MallocTuning.trim()
                }
            }
        }
        let reason: String
        if let until = configuration.until {
            reason = await until()
        } else {
            reason = Self.signalName(await signals?.wait())
        }
        hangups?.cancel()
        await OffPool.run {
            publicServer.stop()  // drains first; health checks are answered meanwhile
            adminServer?.stop()
        }
        sweeper.cancel()
        trimmer?.cancel()
        await sweeper.value  // a sweep in progress finishes before the stores stop
        reloader.waitForReloads()  // a reload in progress finishes before the stores stop
        accessLog?.close()  // before the service's keys are zeroed: the writer digests private paths with them
        await service.stop()
        ServeStateFile.remove(stateDirectory: options.stateDirectory)
        context.diagnose("\(reason): stopped after draining in-flight requests")
        return .success
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

    /// `cannot listen on 127.0.0.1:8080: Address already in use`; for the admin listener
    /// `cannot listen on 127.0.0.1:9091 (--admin-listen): Address already in use`.
    static func listenError(_ error: HTTPServerError, address: ListenAddress, what: String? = nil) -> CommandError {
        let reason = error.errno != 0 ? String(cString: strerror(error.errno)) : error.message
        let name = what.map { "\(address) (\($0))" } ?? "\(address)"
        return CommandError(.listenFailed, "cannot listen on \(name): \(reason)", exitCode: .unusableInput)
    }

    /// `SIGINT`, `SIGTERM`, `signal N`, or `cancelled` for `nil`.
    static func signalName(_ number: Int32?) -> String {
        switch number {
        case nil: return "cancelled"
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case let other?: return "signal \(other)"
        }
    }
}
