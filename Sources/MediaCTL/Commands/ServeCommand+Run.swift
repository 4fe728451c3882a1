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

/// The steps of `serve` (see ``ServeCommand``), then what ends it.
extension ServeCommand {
    func serve(context: CommandContext, configuration: Configuration) async throws(CommandError) -> ExitCode {
        if let limit = configuration.mallocArenaLimit, getenv("MALLOC_ARENA_MAX") == nil {
            MallocTuning.limitArenas(to: limit)  // an operator's MALLOC_ARENA_MAX wins
        }
        let crash = try CrashPoint.fromEnvironment()
        let loaded = try ServiceSetup.loadPoliciesWithDigest(policiesDirectory, overrides: origins)
        // The service log (docs/operations.md, "Service log"): what serve says on stderr once it runs.
        let log = ServiceLog(format: logFormat, level: logLevel, sink: { [context] line in
            context.stderr.writeLine(line)
        })
        let host = try ListenResolver.numericHost(listen.host)
        let adminHost = try adminListen.map { address throws(CommandError) in try ListenResolver.numericHost(address.host) }
        let adminToken: String
        if let file = adminTokenFile {
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
            signals = try Self.watch([SIGINT, SIGTERM, SIGHUP] + (accessLog == nil ? [] : [SIGUSR1]))
        }
        let underscoreNames = UnderscoreFieldNames(loaded.policies.forwardedUnderscoreNames)
        let publicServer = serverConfiguration(host: host, configuration: configuration, underscoreNames: underscoreNames)
        let serverConfiguration = MediaServer.Configuration(
            server: publicServer,
            admin: adminListen.map { MediaServer.Configuration.admin(like: publicServer, host: adminHost ?? $0.host, port: Int($0.port)) },
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
                policies: loaded.policies, stateDirectory: stateDirectory,
                fetcher: configuration.fetcher ?? DefaultOriginFetcher.make()
            ) { service in
                service.policyDigest = loaded.digest
                if let crash { service.durabilityObservers.files = crash }
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
        let accessLog = openAccessLog(accessLogFile, service: service, configuration: configuration.accessLog)
        let (directory, overrides) = (policiesDirectory, origins)
        let reloader = PolicyReloader(
            service: service, directory: directory,
            read: { ServiceSetup.readPolicies(directory, overrides: overrides).map { ($0.policies, $0.digest) } },
            log: log, underscoreNames: underscoreNames)
        let server = MediaServer(
            service: service, configuration: serverConfiguration, purge: configuration.admin?(service, adminToken),
            reload: ReloadEndpoint.handler(reloader: reloader, adminToken: adminToken), accessLog: accessLog,
            auditTiles: AuditTileEndpoint(stateDirectory: stateDirectory), log: log)
        let trigger: MediaServer.Trigger = configuration.until.map { .returns($0) } ?? .signals(signals!) { number in
            switch number {
            case SIGHUP: _ = await OffPool.run { reloader.reload(trigger: "SIGHUP") }
            case SIGUSR1: Self.reopen(accessLog, log: log)
            default: break
            }
        }
        let reason: String
        do {
            reason = try await server.run(until: trigger) { ports throws(CommandError) in
                try announce(ports, adminToken: adminToken, adminHost: adminHost, context: context, log: log)
            }
        } catch {
            signals?.cancel()
            await server.stop()
            switch error {
            case .listener(let failure): throw listenError(failure)
            case .whenListening(let failure): throw failure
            }
        }
        await server.stop { reloader.waitForReloads() }  // a reload in progress finishes before the stores stop
        ServeStateFile.remove(stateDirectory: stateDirectory)
        log.log(.info, "\(reason): stopped after draining in-flight requests")
        return .success
    }

    /// Once both listeners listen: `serve.json` written (pid, bound addresses, admin token), then the addresses printed.
    /// - Throws: ``CommandError`` when the state file cannot be written (serve then stops).
    private func announce(_ ports: MediaServer.BoundPorts, adminToken: String, adminHost: String?, context: CommandContext,
                          log: ServiceLog) throws(CommandError) {
        let bound = ListenAddress(host: listen.host, port: UInt16(ports.port))
        var adminBound: ListenAddress?
        if let address = adminListen, let adminPort = ports.adminPort {
            adminBound = ListenAddress(host: address.host, port: UInt16(adminPort))
        }
        try ServeStateFile(pid: getpid(), listen: bound.description, admin: adminBound?.description ?? ServeStateFile.adminOff,
                           adminToken: adminToken)
            .write(stateDirectory: stateDirectory)
        context.stdout.writeLine(
            "mediactl: serving on http://\(bound) (state: \(stateDirectory), policies: \(policiesDirectory))")
        if let adminBound {
            context.stdout.writeLine("mediactl: admin on http://\(adminBound)")
            if let adminHost, !Self.isLoopback(adminHost) {
                log.log(.warn, Self.publicAdminWarning(adminBound))
            }
        } else {
            context.stdout.writeLine("mediactl: no admin listener (--admin-listen off)")
        }
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
        case .public: Self.listenError(error.error, address: listen, what: "--listen")
        case .admin: Self.listenError(error.error, address: adminListen ?? listen, what: "--admin-listen")
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
