import HTTPCaching
import HTTPServer
import MediaService

/// The HTTP front of `mediactl serve` (docs/service-behaviour.md): maps each
/// ``HTTPServer/HTTPServerRequest`` to a ``MediaService/ServiceRequest`` and the
/// ``MediaService/ServiceResponse`` back, unchanged (status, fields in order, body; problem+json
/// bodies pass through as the service made them).
///
/// - ``handleSync(_:)`` answers through ``MediaService/MediaService/handleIfCached(_:)`` (fresh
///   hits held in memory, refusals) on the connection's event-loop thread,
///   without suspending and without reading a stored file.
/// - ``handle(_:)`` answers through ``MediaService/MediaService/handle(_:)`` (origin fetches,
///   revalidations, hits on disk or sealed entries whose hot copy was evicted); ``handle(_:interim:)``
///   also forwards the interim responses the service reports (``MediaService/ServiceRequest/interimResponses``).
/// - Every target under `/_mediactl/` is answered `404` problem+json (`no-route`, ``adminOnlyDetail``):
///   health, metrics, purge and reload are on the admin listener only (``AdminHTTPHandler``).
/// - With ``annotates``, each answer carries the service's ``MediaService/ServiceOutcome`` as its
///   ``HTTPServer/HTTPServerResponse/annotation`` (``AnsweredOutcome``), for the access log that wraps it
///   (``AccessLogHandler``).
/// - `HEAD` is answered like `GET` without a body; the service's `Content-Length` announces the
///   representation's length (RFC 9110 §9.3.2).
public struct MediaHTTPHandler: HTTPHandling {
    /// Sees every answered request with the service's response, including ``ServiceResponse/outcome``
    /// (for `mediactl demo` and tests). Called on the answering thread; keep it short.
    public typealias Observer = @Sendable (HTTPServerRequest, ServiceResponse) -> Void

    /// The detail of the public listener's `404` for `/_mediactl/` targets.
    public static let adminOnlyDetail = "/_mediactl/ is answered on the admin listener only (serve --admin-listen)"

    /// The pipeline answering every request.
    public let service: MediaService
    /// Called with each service response, or `nil`.
    public let observer: Observer?
    /// Whether each answer carries the service's outcome (``AnsweredOutcome``) for a wrapping handler. Default: `false`.
    public let annotates: Bool
    /// The service log that lines about requests go to (5xx answers at `warn`, every answer at `debug`), or `nil`.
    public let log: ServiceLog?

    /// - Parameters:
    ///   - service: the pipeline.
    ///   - observer: sees each service response. Default: `nil`.
    ///   - annotates: whether answers carry the service's outcome (``AnsweredOutcome``). Default: `false`.
    public init(service: MediaService, observer: Observer? = nil, annotates: Bool = false, log: ServiceLog? = nil) {
        self.log = log
        self.service = service
        self.observer = observer
        self.annotates = annotates
    }

    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        var handoff: (any AnyObject & Sendable)?
        return handleSync(request, handoff: &handoff)
    }

    /// ``handleSync(_:)``; a request the service admitted but cannot answer on the event loop is handed to
    /// ``handle(_:interim:)`` as its ``HTTPServer/HTTPServerRequest/handoff``, so it is not admitted twice.
    public func handleSync(_ request: HTTPServerRequest, handoff: inout (any AnyObject & Sendable)?) -> HTTPServerResponse? {
        answerInline(request) { serviceRequest in
            var admitted: AdmittedRequest?
            guard let response = service.handleIfCached(serviceRequest, admitted: &admitted) else {
                handoff = admitted
                return nil
            }
            return response
        }
    }

    /// `/_mediactl/` targets answered ``adminOnly``, others by `answer` (on the event-loop thread, without
    /// suspending), observed and recorded; `nil` when `answer` declines.
    @inline(__always)
    private func answerInline(_ request: HTTPServerRequest, _ answer: (ServiceRequest) -> ServiceResponse?)
        -> HTTPServerResponse?
    {
        let began = OriginContact.monotonicMicroseconds()
        let requestID = RequestID.of(request.headerFields)
        if Self.isReserved(request) { return Self.withRequestID(Self.adminOnly, requestID) }
        var serviceRequest = Self.serviceRequest(request)
        serviceRequest.requestID = requestID
        guard let response = answer(serviceRequest) else { return nil }
        observer?(request, response)
        record(response, since: began, requestID: requestID)
        return answered(response, requestID: requestID)
    }

    public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        await handle(request, interim: .disabled)
    }

    /// ``handle(_:)``, forwarding the interim responses the service reports (conformance mode: an origin's
    /// `103 Early Hints`, `102 Processing`) through `interim` before the final response.
    public func handle(_ request: HTTPServerRequest, interim: HTTPInterimResponseWriter) async -> HTTPServerResponse {
        let began = OriginContact.monotonicMicroseconds()
        // Admitted on the event loop already (handleSync's handoff): continued, not admitted again, with its id.
        let handoff = request.handoff as? AdmittedRequest
        let requestID = handoff?.requestID ?? RequestID.of(request.headerFields)
        if Self.isReserved(request) { return Self.withRequestID(Self.adminOnly, requestID) }
        var forward: OriginInterimResponse.Handler?
        if interim.isEnabled {
            forward = { response in
                interim.send(HTTPServerInterimResponse(status: response.status, headerFields: response.fields))
            }
        }
        let response: ServiceResponse
        if let handoff {
            response = await service.handle(handoff, interimResponses: forward)
        } else {
            var serviceRequest = Self.serviceRequest(request)
            serviceRequest.interimResponses = forward
            serviceRequest.requestID = requestID
            response = await service.handle(serviceRequest)
        }
        observer?(request, response)
        record(response, since: began, requestID: requestID)
        return answered(response, requestID: requestID)
    }

    /// The wire answer, annotated with the service's outcome when ``annotates``.
    @inline(__always)
    private func answered(_ response: ServiceResponse, requestID: String) -> HTTPServerResponse {
        var wire = Self.serverResponse(response, requestID: requestID)
        if annotates { wire.annotation = AnsweredOutcome(response.outcome) }
        return wire
    }

    /// Records `response` in the service's ``MediaService/RequestMetrics`` with the time since `began` (monotonic
    /// microseconds).
    /// With a ``log``: a line about a 5xx answer at `warn`, about every answer at `debug` (route, tier, status,
    /// outcome, problem code and duration: never the path, a credential or a signed URL's parameters).
    @inline(__always)
    private func record(_ response: ServiceResponse, since began: Int64, requestID: String) {
        let microseconds = max(0, OriginContact.monotonicMicroseconds() - began)
        defer { logAnswer(response, microseconds: microseconds, requestID: requestID) }
        service.requestMetrics.record(tier: response.outcome.tier, cacheStatus: response.outcome.cacheStatus,
                                      status: response.status, microseconds: microseconds)
    }

    /// With a ``log``: the line about an answer (see ``record(_:since:requestID:)``).
    @inline(__always)
    private func logAnswer(_ response: ServiceResponse, microseconds: Int64, requestID: String) {
        guard let log, log.writes(response.status.code >= 500 ? .warn : .debug) else { return }
        let outcome = RequestMetrics.Outcome.of(cacheStatus: response.outcome.cacheStatus, status: response.status)
        let problem = response.status.code >= 400 ? Self.problemCode(response).map { " \($0)" } ?? "" : ""
        log.log(response.status.code >= 500 ? .warn : .debug,
                "answered \(response.status.code)\(problem) (\(outcome.rawValue)) on route \(response.outcome.route ?? "none") "
                    + "(tier \(response.outcome.tier ?? "none")) in \(microseconds) µs",
                requestID: requestID)
    }

    /// The `code` of a problem+json answer (its body starts `{"code":"…"`, ``MediaCore/ProblemDetails/json``), else
    /// `nil`; read only for a line about to be logged.
    static func problemCode(_ response: ServiceResponse) -> String? {
        let prefix = Array(#"{"code":""#.utf8)
        let body = response.body
        guard body.count > prefix.count, body.starts(with: prefix) else { return nil }
        let rest = body[prefix.count...]
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")), end - rest.startIndex <= 64 else { return nil }
        return String(decoding: rest[..<end], as: UTF8.self)
    }

    /// A request refused from its head alone, before the server reads its body (``MediaService/MediaService/refusalBeforeBody(_:)``):
    /// the server then closes the connection.
    public func refusesBody(_ head: HTTPServerRequest) -> HTTPServerResponse? {
        answerInline(head) { service.refusalBeforeBody($0) }
    }

    /// Whether `request`'s target is under `/_mediactl/` (a byte-prefix test: cheap on every hit).
    @inline(__always)
    static func isReserved(_ request: HTTPServerRequest) -> Bool {
        request.target.utf8.starts(with: "/_mediactl/".utf8)
    }

    /// `404` problem+json (`no-route`) for `/_mediactl/` targets on the public listener.
    /// `X-Request-Id` added to an answer made outside the service.
    static func withRequestID(_ response: HTTPServerResponse, _ requestID: String) -> HTTPServerResponse {
        var response = response
        response.headerFields.set(RequestID.fieldName, requestID)
        return response
    }

    static var adminOnly: HTTPServerResponse {
        problem(404, code: "no-route", detail: adminOnlyDetail)
    }
}
