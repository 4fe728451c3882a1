import HTTPServer
import MediaService
import Synchronization

/// A ``MediaService/MediaService`` over HTTP: the public listener (``MediaHTTPHandler``), the optional admin
/// listener (``AdminHTTPHandler``: health, readiness, metrics, purge, reload), the optional access log, and the
/// periodic sweep of expired entries. `mediactl serve` and `mediactl demo` both run the service through it.
///
/// Life: ``run(until:whenListening:)`` binds both listeners, says where, sweeps until its trigger fires, then stops
/// listening; ``stop(beforeServiceStops:)`` drains in-flight requests, ends the sweep, closes the access log and stops
/// the service (its `stop` record), in that order. `serve` and `demo` start it the same way.
public final class MediaServer: Sendable {
    /// Listeners and intervals.
    public struct Configuration: Sendable {
        /// The public listener (host, port, event loops, limits).
        public var server: HTTPServer.Configuration
        /// The admin listener; `nil` (the default): none.
        public var admin: HTTPServer.Configuration?
        /// Time between two sweeps of expired entries while ``run(until:whenListening:)`` waits; `nil`: none. Default: 60 s.
        public var sweepInterval: Duration?
        /// How often freed heap memory goes back to the kernel (``HTTPServer/MallocTuning/trim()``) while
        /// ``run(until:whenListening:)`` waits; `nil` (the default): never.
        public var trimInterval: Duration?

        public init(
            server: HTTPServer.Configuration, admin: HTTPServer.Configuration? = nil,
            sweepInterval: Duration? = .seconds(60), trimInterval: Duration? = nil
        ) {
            self.server = server
            self.admin = admin
            self.sweepInterval = sweepInterval
            self.trimInterval = trimInterval
        }
    }

    /// The addresses' ports once bound.
    public struct BoundPorts: Sendable, Hashable {
        /// The public listener's port.
        public let port: Int
        /// The admin listener's port, or `nil` without one.
        public let adminPort: Int?
    }

    /// The service answered.
    public let service: MediaService
    /// The public listener.
    public let publicServer: HTTPServer
    /// The admin listener, or `nil`.
    public let adminServer: HTTPServer?
    private let accessLog: AccessLog?
    private let configuration: Configuration
    private let stopped = Mutex(false)

    /// - Parameters:
    ///   - purge: answers `POST /_mediactl/purge` on the admin listener; `nil`: `404`.
    ///   - reload: answers `POST /_mediactl/admin/reload`; `nil`: `404`.
    ///   - accessLog: one line per request of the public listener (``AccessLogHandler`` around ``MediaHTTPHandler``),
    ///     its counters in the admin listener's metrics; `nil`: none. Closed by ``stop(beforeServiceStops:)``.
    ///   - auditTiles: serves the audit log as C2SP tlog-tiles under `/_mediactl/audit/` on the admin listener; `nil`:
    ///     `404`.
    ///   - observer: sees every public response (the demo's table). Default: `nil`.
    ///   - log: the service log lines about public requests go to (``ServiceLog``). Default: `nil`.
    public init(
        service: MediaService, configuration: Configuration, purge: AdminHTTPHandler.Handler? = nil,
        reload: AdminHTTPHandler.Handler? = nil, accessLog: AccessLog? = nil, auditTiles: AuditTileEndpoint? = nil,
        observer: MediaHTTPHandler.Observer? = nil, log: ServiceLog? = nil
    ) {
        self.service = service
        self.configuration = configuration
        self.accessLog = accessLog
        let media = MediaHTTPHandler(service: service, observer: observer, annotates: accessLog != nil, log: log)
        let publicServer = HTTPServer(
            configuration: configuration.server,
            handler: accessLog.map { AccessLogHandler(media, accessLog: $0) as any HTTPHandling } ?? media)
        self.publicServer = publicServer
        adminServer = configuration.admin.map { admin in
            let handler = AdminHTTPHandler(service: service, purge: purge, reload: reload, accessLog: accessLog,
                                           auditTiles: auditTiles)
            handler.publicServer.attach(publicServer)
            return HTTPServer(configuration: admin, handler: handler)
        }
    }

    /// Binds and starts the public listener, then the admin listener.
    /// - Throws: ``MediaServerError`` naming the listener that could not listen; nothing stays listening.
    func start() throws(MediaServerError) -> BoundPorts {
        let port: Int
        do {
            port = try publicServer.start()
        } catch {
            throw MediaServerError(listener: .public, error: error)
        }
        var adminPort: Int?
        if let adminServer {
            do {
                adminPort = try adminServer.start()
            } catch {
                publicServer.stop()
                throw MediaServerError(listener: .admin, error: error)
            }
        }
        return BoundPorts(port: port, adminPort: adminPort)
    }

    /// Sweeps expired entries (and trims the heap) every interval until `trigger` returns, then stops the
    /// listeners only (``stopListening()``), and returns what `trigger` returned (the reason, such as `SIGTERM`).
    func sweep(until trigger: @Sendable () async -> String) async -> String {
        let service = self.service
        let sweeper = configuration.sweepInterval.map { interval in
            Task {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: interval) } catch { return }
                    service.sweep()
                }
            }
        }
        let trimmer = configuration.trimInterval.map { every in
            Task.detached {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: every) } catch { return }
                    MallocTuning.trim()
                }
            }
        }
        let reason = await trigger()
        await stopListening()
        sweeper?.cancel()
        trimmer?.cancel()
        await sweeper?.value  // a sweep in progress finishes before the stores stop
        return reason
    }

    /// Stops accepting and drains in-flight requests on both listeners (health checks are answered meanwhile),
    /// off the cooperative pool. Idempotent.
    public func stopListening() async {
        let servers = [publicServer] + (adminServer.map { [$0] } ?? [])
        await OffPool.run {
            for server in servers { server.stop() }
        }
    }

    /// Stops everything once: the listeners (drained), then `beforeServiceStops` (a reload in progress
    /// finishing), the access log (before the service's keys are zeroed: it digests private paths with
    /// them), then the service (``MediaService/MediaService/stop()``). Later calls return at once.
    public func stop(beforeServiceStops: @Sendable () -> Void = {}) async {
        let first = stopped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        await stopListening()
        beforeServiceStops()
        accessLog?.close()
        await service.stop()
    }
}

/// A listener of ``MediaServer`` that could not listen.
public struct MediaServerError: Error, Sendable {
    /// Which listener.
    public enum Listener: Sendable, Hashable {
        case `public`, admin
    }

    /// Which listener.
    public let listener: Listener
    /// Why (its `errno` when the system refused).
    public let error: HTTPServerError
}
