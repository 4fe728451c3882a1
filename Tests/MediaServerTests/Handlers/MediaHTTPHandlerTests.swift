import MediaTestSupport
import HTTPCaching
import HTTPServer
import MediaCore
import MediaService
import Synchronization
import Testing

@testable import MediaServer

/// The adapter between HTTPServer and MediaService, called directly (no socket).
@Suite struct MediaHTTPHandlerTests {
    @Test func wireRequestBecomesAServiceRequest() {
        let wire = HTTPServerRequest(
            method: "HEAD", target: "/catalog/a.jpg?v=2",
            headerFields: [("Host", "x"), ("Accept", "image/*"), ("accept", "image/webp")],
            trailerFields: [("X-Trailer", "t")], body: [1, 2], hasBody: true)
        let request = MediaHTTPHandler.serviceRequest(wire)
        #expect(request.method == "HEAD")
        #expect(request.target == "/catalog/a.jpg?v=2")
        #expect(request.fields.map { "\($0.name): \($0.value)" } == ["Host: x", "Accept: image/*", "accept: image/webp"])
        #expect(request.body == [1, 2])
        #expect(request.cachePolicy == .useProtocolCachePolicy)
        #expect(!request.fields.contains("X-Trailer"))
    }

    @Test func serviceResponseKeepsStatusFieldsAndBody() {
        var fields = HTTPFields()
        fields.append("Content-Type", "application/problem+json")
        fields.append("Cache-Status", "mediactl; fwd=uri-miss; detail=no-store")
        fields.append("Vary", "Authorization")
        let response = ServiceResponse(status: 502, fields: fields, body: Array("{}".utf8), outcome: ServiceOutcome())
        let wire = MediaHTTPHandler.serverResponse(response)
        #expect(wire.status == 502)
        #expect(wire.reasonPhrase == "Bad Gateway")
        #expect(wire.headerFields.map { "\($0.name): \($0.value)" } == [
            "Content-Type: application/problem+json", "Cache-Status: mediactl; fwd=uri-miss; detail=no-store",
            "Vary: Authorization",
        ])
        #expect(wire.body == Array("{}".utf8))
        #expect(!wire.closeConnection)
    }

    @Test func serverCountersInPrometheusTextFormat() {
        let statistics = HTTPServer.Statistics(
            acceptedConnections: 3, refusedConnections: 1, openConnections: 2, requests: 9, parseErrors: 4, timeouts: 5,
            refusedPerPeer: 6, shedConnections: 7, refusedBodies: 8)
        #expect(
            AdminHTTPHandler.metricsLines(statistics) == """
                # HELP mediactl_http_connections_accepted_total Client connections accepted.
                # TYPE mediactl_http_connections_accepted_total counter
                mediactl_http_connections_accepted_total 3
                # HELP mediactl_http_connections_refused_total Client connections answered 503 over the connection cap or the per-address cap.
                # TYPE mediactl_http_connections_refused_total counter
                mediactl_http_connections_refused_total 1
                # HELP mediactl_http_connections_refused_per_address_total Client connections answered 503 because their address had 256 (maxConnectionsPerPeer) open.
                # TYPE mediactl_http_connections_refused_per_address_total counter
                mediactl_http_connections_refused_per_address_total 6
                # HELP mediactl_http_connections_shed_total Idle connections closed to make room as open connections neared the cap.
                # TYPE mediactl_http_connections_shed_total counter
                mediactl_http_connections_shed_total 7
                # HELP mediactl_http_bodies_refused_total Requests answered before their body was read (refused from the head, or over the body budget).
                # TYPE mediactl_http_bodies_refused_total counter
                mediactl_http_bodies_refused_total 8
                # HELP mediactl_http_requests_abandoned_total Requests whose client closed the connection before the answer; their unstarted work (a queued transform) was dropped.
                # TYPE mediactl_http_requests_abandoned_total counter
                mediactl_http_requests_abandoned_total 0
                # HELP mediactl_http_connections_open Client connections open now.
                # TYPE mediactl_http_connections_open gauge
                mediactl_http_connections_open 2
                # HELP mediactl_http_requests_total Requests answered.
                # TYPE mediactl_http_requests_total counter
                mediactl_http_requests_total 9
                # HELP mediactl_http_parse_errors_total Requests refused by the HTTP parser (400, 413, 414, 431, 501, 505).
                # TYPE mediactl_http_parse_errors_total counter
                mediactl_http_parse_errors_total 4
                # HELP mediactl_http_timeouts_total Connections closed by a read-header, request, idle or write timeout, or below the minimum transfer rate.
                # TYPE mediactl_http_timeouts_total counter
                mediactl_http_timeouts_total 5

                """)
    }

    @Test func metricsGrowByTheServerCountersOnlyWhenAServerIsAttached() async throws {
        let harness = try Self.harness()
        let service = harness.service
        let handler = AdminHTTPHandler(service: service)
        let plain = try #require(handler.handleSync(HTTPServerRequest(method: "GET", target: "/_mediactl/metrics")))
        #expect(!String(decoding: plain.body, as: UTF8.self).contains("mediactl_http_"))
        let publicServer = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0),
                                      handler: MediaServerLifecycleTests.NoContent())
        _ = try publicServer.start()
        defer { publicServer.stop() }
        handler.publicServer.attach(publicServer)
        let get = try #require(handler.handleSync(HTTPServerRequest(method: "GET", target: "/_mediactl/metrics")))
        let text = String(decoding: get.body, as: UTF8.self)
        #expect(text.hasPrefix(String(decoding: plain.body, as: UTF8.self)))
        #expect(text.contains("\nmediactl_http_connections_open 0\n"))
        #expect(get.field("Content-Length") == String(get.body.count))
        let head = try #require(handler.handleSync(HTTPServerRequest(method: "HEAD", target: "/_mediactl/metrics")))
        #expect(head.body.isEmpty)
        #expect(head.field("Content-Length") == String(get.body.count))
        await harness.close()
    }

    @Test func syncPathAnswersEndpointsAndDeclinesMisses() async throws {
        let harness = try Self.harness()
        let service = harness.service
        let seen = Mutex<[String]>([])
        let handler = MediaHTTPHandler(service: service, observer: { request, response in
            seen.withLock { $0.append("\(request.target) \(response.status) \(response.outcome.storage?.description ?? "-")") }
        })
        let path = "/catalog/spinner.gif"
        #expect(handler.handleSync(HTTPServerRequest(method: "GET", target: path)) == nil)
        let miss = await handler.handle(HTTPServerRequest(method: "GET", target: path))
        #expect(miss.status == 200)
        #expect(miss.field("Content-Type") == "image/gif")
        let hit = try #require(handler.handleSync(HTTPServerRequest(method: "GET", target: path)))
        #expect(hit.field("Cache-Status")?.hasPrefix("mediactl; hit; ttl=") == true)
        let head = try #require(handler.handleSync(HTTPServerRequest(method: "HEAD", target: path)))
        #expect(head.body.isEmpty)
        #expect(head.field("Content-Length") == String(miss.body.count))
        let noRoute = try #require(handler.handleSync(HTTPServerRequest(method: "GET", target: "/nowhere/a.gif")))
        #expect(noRoute.status == 404)
        #expect(noRoute.field("Content-Type") == "application/problem+json")
        #expect(seen.withLock { $0 } == [
            "\(path) 200 disk", "\(path) 200 hit", "\(path) 200 hit", "/nowhere/a.gif 404 -",
        ])
        await harness.close()
    }

    /// The public listener answers 404 for every `/_mediactl/` target, on both paths, and never reaches the service.
    @Test func publicHandlerRefusesEveryAdminPath() async throws {
        let harness = try Self.harness()
        let service = harness.service
        let handler = MediaHTTPHandler(service: service)
        let expected = "{\"code\":\"no-route\",\"detail\":\"/_mediactl/ is answered on the admin listener only (serve --admin-listen)\",\"status\":404,\"title\":\"Not Found\",\"type\":\"https://mediactl.dev/problems/no-route\"}"
        for (method, target) in [("GET", "/_mediactl/health"), ("GET", "/_mediactl/metrics"), ("HEAD", "/_mediactl/metrics"),
                                 ("POST", "/_mediactl/purge?all"), ("POST", "/_mediactl/admin/reload"), ("GET", "/_mediactl/x")] {
            let request = HTTPServerRequest(method: HTTPMethod(method), target: target)
            for answer in [try #require(handler.handleSync(request)), await handler.handle(request)] {
                #expect(answer.status == 404, "\(method) \(target)")
                #expect(answer.field("Content-Type") == "application/problem+json")
                #expect(String(decoding: answer.body, as: UTF8.self) == expected)
            }
        }
        await harness.close()
    }

    /// The admin handler: health and metrics on the sync path, purge and reload declined there and answered by
    /// their handlers, other methods 405, paths outside `/_mediactl/` 404.
    @Test func adminHandlerRoutesTheAdminPaths() async throws {
        let harness = try Self.harness()
        let service = harness.service
        let bare = AdminHTTPHandler(service: service)
        let health = try #require(bare.handleSync(HTTPServerRequest(method: "GET", target: "/_mediactl/health")))
        #expect(health.status == 200)
        #expect(health.field("Content-Type") == "application/json")
        let post = HTTPServerRequest(method: "POST", target: "/_mediactl/purge?all")
        let reload = HTTPServerRequest(method: "POST", target: "/_mediactl/admin/reload")
        #expect(bare.handleSync(post) == nil)
        #expect(await bare.handle(post).status == 404)
        #expect(String(decoding: await bare.handle(reload).body, as: UTF8.self).contains("\"detail\":\"no admin endpoint at /_mediactl/admin/reload in this server\""))
        let admin = AdminHTTPHandler(service: service, purge: { _ in HTTPServerResponse(status: 202) },
                                     reload: { _ in HTTPServerResponse(status: 203) })
        #expect(admin.handleSync(post) == nil)
        #expect(admin.handleSync(reload) == nil)
        #expect(await admin.handle(post).status == 202)
        #expect(await admin.handle(reload).status == 203)
        #expect(await admin.handle(HTTPServerRequest(method: "PUT", target: "/_mediactl/purge")).status == 405)
        let getReload = try #require(admin.handleSync(HTTPServerRequest(method: "GET", target: "/_mediactl/admin/reload")))
        #expect(getReload.status == 405)
        #expect(getReload.field("Allow") == "POST")
        let outside = try #require(admin.handleSync(HTTPServerRequest(method: "GET", target: "/catalog/spinner.gif")))
        #expect(outside.status == 404)
        #expect(String(decoding: outside.body, as: UTF8.self).contains("\"detail\":\"the admin listener answers /_mediactl/ paths only\""))
        #expect(await admin.handle(HTTPServerRequest(method: "GET", target: "/catalog/spinner.gif")).status == 404)
        await harness.close()
    }

    /// The pipeline harness with `/catalog/spinner.gif` at the origin (fresh for ten minutes).
    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness()
        harness.origin.setReply(
            .init(fields: ["Content-Type": "image/gif", "Cache-Control": "max-age=600"],
                  body: try TestFixtures.bytes("catalog/spinner.gif")),
            for: "http://origin.test/catalog/spinner.gif")
        return harness
    }
}
