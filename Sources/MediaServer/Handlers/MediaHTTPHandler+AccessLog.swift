import HTTPServer
import MediaCore
import MediaService

extension MediaHTTPHandler {
    /// The start readings when an access log is attached (``AccessLog/start()``), else `nil` (no clock read).
    @inline(__always)
    func accessLogStart() -> AccessLogStart? {
        accessLog?.start()
    }

    /// Queues the line of a service answer: `response` as the service made it (outcome included), `origin`
    /// the recorder bound around the service call (async path) or `nil`.
    /// `elapsed`: the request's monotonic microseconds, read once for the metrics and this line.
    func logAccess(_ request: HTTPServerRequest, _ response: ServiceResponse, since start: AccessLogStart?, elapsed: Int64,
                   origin: OriginContact? = nil, requestID: String? = nil) {
        guard let accessLog, let start else { return }
        accessLog.record(
            AccessLogRecordCodec.Fields(
                milliseconds: start.milliseconds, status: response.status.code,
                bytes: request.method == .head ? 0 : response.bodyCount, durationMicroseconds: elapsed,
                originStatus: origin?.status?.code, originMicroseconds: origin?.microseconds),
            strings: (request.method.rawValue, request.target, response.outcome.route, response.outcome.tier,
                      response.outcome.cacheStatus, response.outcome.variant, response.outcome.partition, requestID))
    }

    /// Queues the line of an answer made outside the service (the admin endpoint): `route` and `tier` `null`.
    func logAccess(_ request: HTTPServerRequest, _ response: HTTPServerResponse, since start: AccessLogStart?,
                   requestID: String? = nil) {
        guard let accessLog, let start else { return }
        accessLog.record(AccessLogEntry(
            milliseconds: start.milliseconds, method: request.method.rawValue, target: request.target, status: response.status.code,
            bytes: request.method == .head ? 0 : response.bodyCount, durationMicroseconds: start.elapsedMicroseconds,
            requestID: requestID))
    }

    /// Queues the line of a request the HTTP server answered itself (unparseable: 400, 413, 414, 431, 501,
    /// 505; or a head not received in time: 408): `method`, `route`, `tier` and `path` `null`, `duration_us` 0.
    public func serverAnswered(status: HTTPStatus, bodyBytes: Int) {
        guard let accessLog else { return }
        accessLog.record(AccessLogEntry(milliseconds: AccessLogStart.now().milliseconds, method: nil, target: nil,
                                        status: status.code, bytes: bodyBytes, durationMicroseconds: 0))
    }

    /// `service.handle(request)`, with an ``MediaService/OriginContact`` bound when an access log is attached.
    func handleLogged(_ answer: () async -> ServiceResponse) async -> (ServiceResponse, OriginContact?) {
        guard accessLog != nil else { return (await answer(), nil) }
        let contact = OriginContact()
        let response = await OriginContact.$current.withValue(contact) { await answer() }
        return (response, contact)
    }
}
