import Foundation
import HTTPServer
import MediaCore
import Synchronization

/// A loopback origin for the real-transport miss figures: an `HTTPServer` on an ephemeral
/// 127.0.0.1 port answering every `GET /catalog/…` with the catalog JPEG (200, one year,
/// immutable, ETag) from its synchronous fast path, counting requests.
///
/// `MEDIABENCH_ORIGIN_DELAY_US=N` (default 0) makes it answer each request N µs later, standing in for an
/// origin that is not on the same machine: the bare fetch and the service's fetch wait alike, so the
/// miss-overhead ratio is measured against a slower reference. The wait is a `usleep` on the origin's own
/// event-loop thread (the figures are sequential: one request at a time), not a `Task.sleep`, whose timer
/// and wake-up share Swift's cooperative pool (two threads here) with the service under test and made the
/// service's fetches look up to 700 µs slower than the bare ones whenever the pool had other work.
final class ServiceOrigin: HTTPHandling {
    let body: [UInt8]
    let requests = Atomic<Int>(0)
    private let fields: HTTPFields
    /// The answer delay in µs (`MEDIABENCH_ORIGIN_DELAY_US`); 0 answers at once.
    let delayMicroseconds: Int

    init(body: [UInt8]) {
        self.body = body
        fields = ServiceFixture.originFields()
        delayMicroseconds = max(0, Int(ProcessInfo.processInfo.environment["MEDIABENCH_ORIGIN_DELAY_US"] ?? "") ?? 0)
    }

    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        answer(request)
    }

    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        if delayMicroseconds > 0 { usleep(UInt32(delayMicroseconds)) }
        return answer(request)
    }

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
