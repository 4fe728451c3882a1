import HTTPCaching
import HTTPServer
import MediaService

/// The HTTP front of `mediactl serve`'s admin listener (`--admin-listen`, docs/operations.md "Admin
/// listener"): the paths under `/_mediactl/`, which the public listener (``MediaHTTPHandler``) answers `404`.
///
/// - `GET`/`HEAD /_mediactl/health` (JSON) and `/_mediactl/metrics` (Prometheus text format 0.0.4, with the
///   public listener's server counters appended, ``publicServer``) are answered on the event-loop thread
///   (``handleSync(_:)``), never behind the public port's queue.
/// - `POST /_mediactl/purge` goes to ``purge`` (``AdminEndpoint``); without one it is `404` problem+json
///   (`no-route`).
/// - `POST /_mediactl/admin/reload` goes to ``reload`` (``ReloadEndpoint``); without one, `404`.
/// - `/_mediactl/audit/…` goes to ``auditTiles`` (``AuditTileEndpoint``, C2SP tlog-tiles) on a task, as it reads
///   files; without one, `404`.
/// - Other `/_mediactl/` paths and methods get the service's own answers (`404 no-route`,
///   `405 method-not-allowed`); paths outside `/_mediactl/` are `404` problem+json (`no-route`,
///   `the admin listener answers /_mediactl/ paths only`).
public struct AdminHTTPHandler: HTTPHandling {
    /// Answers an admin request (`POST /_mediactl/purge`, `POST /_mediactl/admin/reload`). It runs on a
    /// task, never on the connection's event-loop thread.
    public typealias Handler = @Sendable (HTTPServerRequest) async -> HTTPServerResponse

    /// The path of the purge endpoint: `/_mediactl/purge`.
    public static let purgePath = "/_mediactl/purge"
    /// The path of the reload endpoint: `/_mediactl/admin/reload`.
    public static let reloadPath = "/_mediactl/admin/reload"
    /// The prefix of every admin path: `/_mediactl/`.
    public static let prefix = "/_mediactl/"

    /// The service whose health and metrics are reported.
    public let service: MediaService
    /// `POST /_mediactl/purge`, or `nil` (404).
    public let purge: Handler?
    /// `POST /_mediactl/admin/reload`, or `nil` (404).
    public let reload: Handler?
    /// The public listener's server, whose counters `GET /_mediactl/metrics` appends; attach it once created.
    public let publicServer: ServerReference
    /// The public listener's access log, whose counters `GET /_mediactl/metrics` appends, or `nil`.
    public let accessLog: AccessLog?
    /// `/_mediactl/audit/…`, or `nil` (404).
    public let auditTiles: AuditTileEndpoint?

    /// - Parameters:
    ///   - service: the running service.
    ///   - purge: what answers `POST /_mediactl/purge`. Default: `nil` (404 problem+json).
    ///   - reload: what answers `POST /_mediactl/admin/reload`. Default: `nil` (404 problem+json).
    ///   - publicServer: where the public server is attached for metrics. Default: a new, empty reference.
    ///   - accessLog: the public listener's access log (`serve --access-log`). Default: `nil`.
    ///   - auditTiles: the audit log's C2SP tlog-tiles. Default: `nil` (404 problem+json).
    public init(service: MediaService, purge: Handler? = nil, reload: Handler? = nil,
                publicServer: ServerReference = ServerReference(), accessLog: AccessLog? = nil,
                auditTiles: AuditTileEndpoint? = nil) {
        self.service = service
        self.purge = purge
        self.reload = reload
        self.publicServer = publicServer
        self.accessLog = accessLog
        self.auditTiles = auditTiles
    }

    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        guard request.target.hasPrefix(Self.prefix) else { return Self.outsidePrefix }
        if request.method == .post && (request.path == Self.purgePath || request.path == Self.reloadPath) { return nil }
        if AuditTileEndpoint.answers(request.path) { return nil }
        return answer(request)
    }

    public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        guard request.target.hasPrefix(Self.prefix) else { return Self.outsidePrefix }
        if AuditTileEndpoint.answers(request.path) {
            guard let auditTiles else { return Self.noEndpoint(AuditTileEndpoint.prefix) }
            return auditTiles.answer(request)
        }
        if request.method == .post {
            switch request.path {
            case Self.purgePath:
                guard let purge else { return Self.noEndpoint(Self.purgePath) }
                return await purge(request)
            case Self.reloadPath:
                guard let reload else { return Self.noEndpoint(Self.reloadPath) }
                return await reload(request)
            default:
                break
            }
        }
        return answer(request)
    }

    /// Health, metrics and the service's refusals of other `/_mediactl/` requests.
    private func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        if request.path == Self.reloadPath {
            var response = MediaHTTPHandler.problem(405, code: "method-not-allowed", detail: "\(Self.reloadPath) answers POST only")
            response.headerFields.append(.allow, "POST")
            return response
        }
        // The service's endpoints answer every other `/_mediactl/` target synchronously.
        let answer = service.endpoint(MediaHTTPHandler.serviceRequest(request))
        return MediaHTTPHandler.serverResponse(addingServerMetrics(answer, for: request))
    }

    /// `404` problem+json for a path outside `/_mediactl/`.
    static var outsidePrefix: HTTPServerResponse {
        MediaHTTPHandler.problem(404, code: "no-route", detail: "the admin listener answers \(prefix) paths only")
    }

    /// `404` problem+json when no handler is installed for `path`.
    static func noEndpoint(_ path: String) -> HTTPServerResponse {
        MediaHTTPHandler.problem(404, code: "no-route", detail: "no admin endpoint at \(path) in this server")
    }
}
