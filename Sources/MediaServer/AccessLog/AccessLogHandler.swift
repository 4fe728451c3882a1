import HTTPServer
import MediaCore
import MediaService

/// The access log around a handler (`serve --access-log`, docs/operations.md "Access log"): one line per answered
/// request, queued after the wrapped handler answers, and one per request the HTTP server answered itself.
///
/// The line's route, tier, cache outcome, variant and partition come from the answer's ``AnsweredOutcome``
/// (``MediaHTTPHandler/annotates``); an answer without one (the public listener's `404` for `/_mediactl/`) has them
/// `null`. The request id is the answer's `X-Request-Id`; the origin's status and time are read from an
/// ``MediaService/OriginContact`` bound around the asynchronous answer.
public struct AccessLogHandler<Wrapped: HTTPHandling>: HTTPHandling {
    /// The handler that answers.
    public let wrapped: Wrapped
    /// Where the lines go.
    public let accessLog: AccessLog

    public init(_ wrapped: Wrapped, accessLog: AccessLog) {
        self.wrapped = wrapped
        self.accessLog = accessLog
    }

    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        var handoff: (any AnyObject & Sendable)?
        return handleSync(request, handoff: &handoff)
    }

    public func handleSync(_ request: HTTPServerRequest, handoff: inout (any AnyObject & Sendable)?) -> HTTPServerResponse? {
        let start = accessLog.start()
        guard let response = wrapped.handleSync(request, handoff: &handoff) else { return nil }
        log(request, response, since: start, origin: nil)
        return response
    }

    public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        await handle(request, interim: .disabled)
    }

    public func handle(_ request: HTTPServerRequest, interim: HTTPInterimResponseWriter) async -> HTTPServerResponse {
        let start = accessLog.start()
        let contact = OriginContact()
        let wrapped = self.wrapped
        let response = await OriginContact.$current.withValue(contact) { await wrapped.handle(request, interim: interim) }
        log(request, response, since: start, origin: contact)
        return response
    }

    public func refusesBody(_ head: HTTPServerRequest) -> HTTPServerResponse? {
        let start = accessLog.start()
        guard let response = wrapped.refusesBody(head) else { return nil }
        log(head, response, since: start, origin: nil)
        return response
    }

    /// The line of a request the HTTP server answered itself (unparseable: 400, 413, 414, 431, 501, 505; or a head
    /// not received in time: 408): `method`, `route`, `tier` and `path` `null`, `duration_us` 0.
    public func serverAnswered(status: HTTPStatus, bodyBytes: Int) {
        accessLog.record(AccessLogEntry(milliseconds: AccessLogStart.now().milliseconds, method: nil, target: nil,
                                        status: status.code, bytes: bodyBytes, durationMicroseconds: 0))
        wrapped.serverAnswered(status: status, bodyBytes: bodyBytes)
    }

    /// Queues the line of `response` to `request`, taken up at `start`.
    private func log(_ request: HTTPServerRequest, _ response: HTTPServerResponse, since start: AccessLogStart,
                     origin: OriginContact?) {
        let bytes = request.method == .head ? 0 : response.bodyCount
        let requestID = response.field(RequestID.fieldName)
        guard let outcome = (response.annotation as? AnsweredOutcome)?.outcome else {
            accessLog.record(AccessLogEntry(
                milliseconds: start.milliseconds, method: request.method.rawValue, target: request.target,
                status: response.status.code, bytes: bytes, durationMicroseconds: start.elapsedMicroseconds,
                requestID: requestID))
            return
        }
        accessLog.record(
            AccessLogRecordCodec.Fields(
                milliseconds: start.milliseconds, status: response.status.code, bytes: bytes,
                durationMicroseconds: start.elapsedMicroseconds, originStatus: origin?.status?.code,
                originMicroseconds: origin?.microseconds),
            strings: (request.method.rawValue, request.target, outcome.route, outcome.tier, outcome.cacheStatus,
                      outcome.variant, outcome.partition, requestID))
    }
}
