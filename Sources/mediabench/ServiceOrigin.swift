import HTTPServer
import Synchronization

/// A loopback origin for the real-transport miss figures: an `HTTPServer` on an ephemeral
/// 127.0.0.1 port answering every `GET /catalog/…` with the catalog JPEG (200, one year,
/// immutable, ETag) from its synchronous fast path, counting requests.
final class ServiceOrigin: HTTPHandling {
    let body: [UInt8]
    let requests = Atomic<Int>(0)
    private let fields: [(name: String, value: String)]

    init(body: [UInt8]) {
        self.body = body
        fields = ServiceFixture.originFields().map { ($0.name, $0.value) }
    }

    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { answer(request) }

    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? { answer(request) }

    private func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        requests.add(1, ordering: .relaxed)
        guard request.target.hasPrefix("/catalog/") else { return HTTPServerResponse(status: 404) }
        return HTTPServerResponse(status: 200, headerFields: fields, body: body)
    }

    /// Starts a server for `origin` on 127.0.0.1, ephemeral port; returns it and its port.
    static func start(_ origin: ServiceOrigin) throws -> (server: HTTPServer, port: Int) {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: origin)
        let port = try server.start()
        return (server, port)
    }
}
