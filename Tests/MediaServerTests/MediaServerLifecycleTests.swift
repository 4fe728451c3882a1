import HTTPServer
import Testing

@testable import MediaServer

#if canImport(Glibc)
import Glibc
#endif

/// What `MediaServer` owns of a run besides its listeners: probing both ports before anything is opened, the admin
/// listener's configuration, and the stopping signal's name.
@Suite(.serialized) struct MediaServerLifecycleTests {
    @Test func probeNamesTheListenerWhosePortIsTaken() throws {
        let taken = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: NoContent())
        let port = try taken.start()
        defer { taken.stop() }
        let free = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        let busy = HTTPServer.Configuration(host: "127.0.0.1", port: port)
        #expect(throws: Never.self) { try MediaServer.probe(.init(server: free, admin: free)) }
        #expect(Self.listener(.init(server: busy, admin: free)) == .public)
        #expect(Self.listener(.init(server: free, admin: busy)) == .admin)
        #expect(Self.errno(.init(server: free, admin: busy)) == EADDRINUSE)
    }

    @Test func theAdminListenerHasOneLoopAndAtMost64Connections() {
        var server = HTTPServer.Configuration(host: "0.0.0.0", port: 8080)
        server.eventLoopCount = 4
        server.maxConnections = 1024
        let admin = MediaServer.Configuration.admin(like: server, host: "127.0.0.1", port: 9091)
        #expect(admin.host == "127.0.0.1")
        #expect(admin.port == 9091)
        #expect(admin.eventLoopCount == 1)
        #expect(admin.maxConnections == 64)
        #expect(admin.readHeaderTimeout == server.readHeaderTimeout)
    }

    @Test func signalNames() {
        #expect(MediaServer.signalName(SIGINT) == "SIGINT")
        #expect(MediaServer.signalName(SIGTERM) == "SIGTERM")
        #expect(MediaServer.signalName(SIGHUP) == "SIGHUP")
        #expect(MediaServer.signalName(SIGUSR2) == "signal \(SIGUSR2)")
        #expect(MediaServer.signalName(nil) == "cancelled")
    }

    /// Answers `204` to everything.
    struct NoContent: HTTPHandling {
        func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { HTTPServerResponse(status: 204) }
    }

    static func listener(_ configuration: MediaServer.Configuration) -> MediaServerError.Listener? {
        do {
            try MediaServer.probe(configuration)
            return nil
        } catch {
            return error.listener
        }
    }

    static func errno(_ configuration: MediaServer.Configuration) -> Int32? {
        do {
            try MediaServer.probe(configuration)
            return nil
        } catch {
            return error.error.errno
        }
    }
}
