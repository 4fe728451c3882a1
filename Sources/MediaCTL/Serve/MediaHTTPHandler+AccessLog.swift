import HTTPServer
import MediaService

extension MediaHTTPHandler {
    /// Both clock readings when an access log is attached, else `nil` (no clock read).
    @inline(__always)
    func accessLogStart() -> AccessLogStart? {
        accessLog == nil ? nil : AccessLogStart.now()
    }

    /// Queues the line of a service answer: `response` as the service made it (outcome included), `origin`
    /// the recorder bound around the service call (async path) or `nil`.
    func logAccess(_ request: HTTPServerRequest, _ response: ServiceResponse, since start: AccessLogStart?,
                   origin: OriginContact? = nil) {
        guard let accessLog, let start else { return }
        let outcome = response.outcome
        accessLog.record(AccessLogEntry(
            milliseconds: start.milliseconds, method: request.method, target: request.target, status: response.status,
            bytes: request.method == "HEAD" ? 0 : response.body.count, durationMicroseconds: start.elapsedMicroseconds,
            route: outcome.route, tier: outcome.tier, cacheStatus: outcome.cacheStatus, variant: outcome.variant,
            partition: outcome.partition, originStatus: origin?.status, originMicroseconds: origin?.microseconds))
    }

    /// Queues the line of an answer made outside the service (the admin endpoint): `route` and `tier` `null`.
    func logAccess(_ request: HTTPServerRequest, _ response: HTTPServerResponse, since start: AccessLogStart?) {
        guard let accessLog, let start else { return }
        accessLog.record(AccessLogEntry(
            milliseconds: start.milliseconds, method: request.method, target: request.target, status: response.status,
            bytes: request.method == "HEAD" ? 0 : response.body.count, durationMicroseconds: start.elapsedMicroseconds))
    }

    /// `service.handle(request)`, with an ``MediaService/OriginContact`` bound when an access log is attached.
    func handleLogged(_ request: ServiceRequest) async -> (ServiceResponse, OriginContact?) {
        guard accessLog != nil else { return (await service.handle(request), nil) }
        let contact = OriginContact()
        let response = await OriginContact.$current.withValue(contact) { await service.handle(request) }
        return (response, contact)
    }
}
