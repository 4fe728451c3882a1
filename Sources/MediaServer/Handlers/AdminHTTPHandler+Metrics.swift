import HTTPServer
import MediaService

extension AdminHTTPHandler {
    /// The server's own counters appended to `GET /_mediactl/metrics` (Prometheus text format 0.0.4):
    /// `mediactl_http_connections_accepted_total`, `mediactl_http_connections_refused_total`,
    /// `mediactl_http_connections_open` (gauge), `mediactl_http_requests_total`,
    /// `mediactl_http_parse_errors_total`, `mediactl_http_timeouts_total`,
    /// `mediactl_http_connections_refused_per_address_total`, `mediactl_http_connections_shed_total`,
    /// `mediactl_http_bodies_refused_total`, `mediactl_http_requests_abandoned_total`.
    static func metricsLines(_ statistics: HTTPServer.Statistics) -> String {
        let metrics: [(name: String, type: String, help: String, value: Int)] = [
            ("mediactl_http_connections_accepted_total", "counter", "Client connections accepted.",
             statistics.acceptedConnections),
            ("mediactl_http_connections_refused_total", "counter",
             "Client connections answered 503 over the connection cap or the per-address cap.",
             statistics.refusedConnections),
            ("mediactl_http_connections_refused_per_address_total", "counter",
             "Client connections answered 503 because their address had 256 (maxConnectionsPerPeer) open.",
             statistics.refusedPerPeer),
            ("mediactl_http_connections_shed_total", "counter",
             "Idle connections closed to make room as open connections neared the cap.", statistics.shedConnections),
            ("mediactl_http_bodies_refused_total", "counter",
             "Requests answered before their body was read (refused from the head, or over the body budget).",
             statistics.refusedBodies),
            ("mediactl_http_requests_abandoned_total", "counter",
             "Requests whose client closed the connection before the answer; their unstarted work (a queued transform) was dropped.",
             statistics.abandonedRequests),
            ("mediactl_http_connections_open", "gauge", "Client connections open now.", statistics.openConnections),
            ("mediactl_http_requests_total", "counter", "Requests answered.", statistics.requests),
            ("mediactl_http_parse_errors_total", "counter", "Requests refused by the HTTP parser (400, 413, 414, 431, 501, 505).",
             statistics.parseErrors),
            ("mediactl_http_timeouts_total", "counter",
             "Connections closed by a read-header, request, idle or write timeout, or below the minimum transfer rate.",
             statistics.timeouts),
        ]
        return metrics.map { "# HELP \($0.name) \($0.help)\n# TYPE \($0.name) \($0.type)\n\($0.name) \($0.value)\n" }
            .joined()
    }

    /// `response` with the public server's counters (and the access log's, ``AccessLog/metricsText``) appended
    /// when it is the 200 answer to `GET /_mediactl/metrics` and the public server (or an access log) is attached
    /// (for `HEAD`, only `Content-Length` grows); otherwise `response` unchanged.
    func addingServerMetrics(_ response: ServiceResponse, for request: HTTPServerRequest) -> ServiceResponse {
        guard response.status == 200, request.method.isRead,
            request.path == "/_mediactl/metrics"
        else { return response }
        let statistics = publicServer.statistics
        guard statistics != nil || accessLog != nil else { return response }
        var response = response
        let extra = Array(((statistics.map(Self.metricsLines) ?? "") + (accessLog?.metricsText ?? "")).utf8)
        if request.method == .head {
            let length = Int(response.fields[.contentLength] ?? "") ?? 0
            response.fields.set(.contentLength, String(length + extra.count))
        } else {
            response.body += extra
            response.fields.set(.contentLength, String(response.body.count))
        }
        return response
    }
}
