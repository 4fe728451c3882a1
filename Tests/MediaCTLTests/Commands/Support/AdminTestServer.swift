import HTTPCaching
import HTTPServer
import MediaService

@testable import MediaCTL
@testable import MediaServer

/// A real HTTP server on an ephemeral loopback port that answers every request with an
/// ``AdminEndpoint`` (what `mediactl serve` does for `/_mediactl/purge`).
final class AdminTestServer: Sendable {
    struct Handler: HTTPHandling {
        let admin: AdminHTTPHandler.Handler

        func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { await admin(request) }
    }

    let server: HTTPServer
    let port: Int
    let host: String

    init(service: MediaService, adminToken: String, host: String = "127.0.0.1") throws {
        self.host = host
        server = HTTPServer(
            configuration: .init(host: host, port: 0),
            handler: Handler(admin: AdminEndpoint.handler(service: service, adminToken: adminToken)))
        port = try server.start()
    }

    /// `host:port` as `mediactl serve` writes it to serve.json (`[::1]:port` for IPv6).
    var listen: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    func stop() { server.stop() }
}
