import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

extension MediaServer {
    /// How ``run(until:whenListening:)`` ends: when a function returns (tests, the demo's driver) or at a stopping signal.
    public enum Trigger: Sendable {
        /// When the function returns; what it returns is the reason.
        case returns(@Sendable () async -> String)
        /// At the first `SIGINT` or `SIGTERM` the watcher delivers (the reason: its name, ``signalName(_:)``); the
        /// watcher's other signals (`SIGHUP`, `SIGUSR1`) go to `other` as they come. The watcher is cancelled after.
        case signals(SignalWatcher, other: @Sendable (Int32) async -> Void)
    }

    /// Checks that both listeners' ports can be bound now, before anything is opened (a port in use then fails
    /// before the state directory and its audit log are touched, so no `start`/`stop` records are written).
    /// - Throws: ``MediaServerError`` naming the listener.
    public static func probe(_ configuration: Configuration) throws(MediaServerError) {
        do {
            try HTTPServer.probe(host: configuration.server.host, port: configuration.server.port)
        } catch {
            throw MediaServerError(listener: .public, error: error)
        }
        guard let admin = configuration.admin else { return }
        do {
            try HTTPServer.probe(host: admin.host, port: admin.port)
        } catch {
            throw MediaServerError(listener: .admin, error: error)
        }
    }

    /// Why ``run(until:whenListening:)`` did not run.
    public enum RunError<Failure: Error>: Error {
        /// A listener could not listen; nothing stays listening.
        case listener(MediaServerError)
        /// `whenListening` threw; the listeners were stopped.
        case whenListening(Failure)
    }

    /// The run of a server: binds and starts the public listener, then the admin listener; tells `whenListening`
    /// their ports (the caller writes its state file, prints the addresses); then sweeps expired entries (and trims
    /// the heap) every interval until `trigger` fires; then stops the listeners only (``stopListening()``; the caller
    /// calls ``stop(beforeServiceStops:)``). Returns the reason (`SIGTERM`, or what the function returned).
    /// - Throws: ``RunError``: a listener that could not listen, or what `whenListening` threw; either way
    ///   nothing stays listening.
    public func run<Failure: Error>(
        until trigger: Trigger, whenListening: (BoundPorts) throws(Failure) -> Void
    ) async throws(RunError<Failure>) -> String {
        let ports: BoundPorts
        do {
            ports = try start()
        } catch {
            throw .listener(error)
        }
        do {
            try whenListening(ports)
        } catch {
            await stopListening()
            throw .whenListening(error)
        }
        switch trigger {
        case .returns(let function):
            return await sweep(until: function)
        case .signals(let watcher, let other):
            let reason = await sweep { Self.signalName(await watcher.first(of: [SIGINT, SIGTERM], other: other)) }
            watcher.cancel()
            return reason
        }
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, `signal N`, or `cancelled` for `nil`.
    public static func signalName(_ number: Int32?) -> String {
        switch number {
        case nil: "cancelled"
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case let other?: "signal \(other)"
        }
    }
}

extension MediaServer.Configuration {
    /// The admin listener's configuration: `server`'s limits and timeouts on `host` and `port`, with one event loop
    /// (its own thread: a busy public port never delays a health check) and at most 64 connections.
    public static func admin(like server: HTTPServer.Configuration, host: String, port: Int) -> HTTPServer.Configuration {
        var admin = server
        admin.host = host
        admin.port = port
        admin.eventLoopCount = 1
        admin.maxConnections = min(admin.maxConnections, 64)
        return admin
    }
}
