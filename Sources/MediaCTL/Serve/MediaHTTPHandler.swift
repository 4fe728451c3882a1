import HTTPCaching
import HTTPServer
import MediaService

/// The HTTP front of `mediactl serve` (ARCHITECTURE.md "HTTP interface"): maps each
/// ``HTTPServer/HTTPServerRequest`` to a ``MediaService/ServiceRequest`` and the
/// ``MediaService/ServiceResponse`` back, unchanged (status, fields in order, body; problem+json
/// bodies pass through as the service made them).
///
/// - ``handleSync(_:)`` answers through ``MediaService/MediaService/handleIfCached(_:)`` (fresh
///   hits held in memory, refusals, health and metrics) on the connection's event-loop thread,
///   without suspending and without reading a stored file.
/// - ``handle(_:)`` answers through ``MediaService/MediaService/handle(_:)`` (origin fetches,
///   revalidations, hits on disk or sealed entries whose hot copy was evicted); ``handle(_:interim:)``
///   also forwards the interim responses the service reports (``MediaService/ServiceRequest/interimResponses``).
/// - `POST /_mediactl/purge` goes to ``admin`` (the admin endpoint of `mediactl purge`); without
///   one it is answered `404` problem+json (`no-route`).
/// - `HEAD` is answered like `GET` without a body; the service's `Content-Length` announces the
///   representation's length (RFC 9110 §9.3.2).
/// - `GET /_mediactl/metrics` gets the attached server's counters appended (``server``).
public struct MediaHTTPHandler: HTTPHandling {
    /// Answers an admin request (`POST /_mediactl/purge`). It runs on a task, never on the
    /// connection's event-loop thread.
    public typealias AdminHandler = @Sendable (HTTPServerRequest) async -> HTTPServerResponse
    /// Sees every answered request with the service's response, including ``ServiceResponse/outcome``
    /// (for `mediactl demo` and tests). Called on the answering thread; keep it short.
    public typealias Observer = @Sendable (HTTPServerRequest, ServiceResponse) -> Void

    /// The path of the admin purge endpoint: `/_mediactl/purge`.
    public static let purgePath = "/_mediactl/purge"

    /// The pipeline answering every request.
    public let service: MediaService
    /// The admin endpoint, or `nil` (then `POST /_mediactl/purge` is `404`).
    public let admin: AdminHandler?
    /// Called with each service response, or `nil`.
    public let observer: Observer?
    /// The server whose statistics `GET /_mediactl/metrics` reports; attach it once created.
    public let server: ServerReference
    /// Where each answered request gets its line (`serve --access-log`), or `nil`.
    public let accessLog: AccessLog?

    /// - Parameters:
    ///   - service: the pipeline.
    ///   - admin: what answers `POST /_mediactl/purge`. Default: `nil` (404 problem+json).
    ///   - observer: sees each service response. Default: `nil`.
    ///   - server: where the running server is attached for metrics. Default: a new, empty reference.
    ///   - accessLog: the access log. Default: `nil` (none).
    public init(
        service: MediaService, admin: AdminHandler? = nil, observer: Observer? = nil,
        server: ServerReference = ServerReference(), accessLog: AccessLog? = nil
    ) {
        self.service = service
        self.admin = admin
        self.observer = observer
        self.server = server
        self.accessLog = accessLog
    }

    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        let start = accessLogStart()
        if isAdmin(request) {
            guard admin == nil else { return nil }
            logAccess(request, Self.noAdminEndpoint, since: start)
            return Self.noAdminEndpoint
        }
        guard let answer = service.handleIfCached(Self.serviceRequest(request)) else { return nil }
        let response = addingServerMetrics(answer, for: request)
        observer?(request, response)
        logAccess(request, response, since: start)
        return Self.serverResponse(response)
    }

    public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        await handle(request, interim: .disabled)
    }

    /// ``handle(_:)``, forwarding the interim responses the service reports (conformance mode: an origin's
    /// `103 Early Hints`, `102 Processing`) through `interim` before the final response.
    public func handle(_ request: HTTPServerRequest, interim: HTTPInterimResponseWriter) async -> HTTPServerResponse {
        let start = accessLogStart()
        if isAdmin(request) {
            let answer = await admin?(request) ?? Self.noAdminEndpoint
            logAccess(request, answer, since: start)
            return answer
        }
        var serviceRequest = Self.serviceRequest(request)
        if interim.isEnabled {
            serviceRequest.interimResponses = { response in
                interim.send(HTTPServerInterimResponse(status: response.status,
                                                       headerFields: response.fields.map { ($0.name, $0.value) }))
            }
        }
        let (answer, origin) = await handleLogged(serviceRequest)
        let response = addingServerMetrics(answer, for: request)
        observer?(request, response)
        logAccess(request, response, since: start, origin: origin)
        return Self.serverResponse(response)
    }

    /// Whether `request` is `POST /_mediactl/purge` (query ignored).
    func isAdmin(_ request: HTTPServerRequest) -> Bool {
        request.method == "POST" && request.path == Self.purgePath
    }

    /// `404` problem+json when no admin endpoint is installed.
    static var noAdminEndpoint: HTTPServerResponse {
        problem(404, code: "no-route", detail: "no admin endpoint at \(purgePath) in this server")
    }
}
