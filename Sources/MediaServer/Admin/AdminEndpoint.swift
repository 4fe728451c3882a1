import MediaCore
import HTTPCaching
import HTTPServer
import MediaCrypto
import MediaService

/// The service side of `mediactl purge`: answers `POST /_mediactl/purge` for a running
/// ``MediaService/MediaService`` (`mediactl serve` routes that path here before the service).
///
/// Request: `Authorization: Bearer <adminToken>` (the token of ``ServeStateFile``, compared in
/// constant time) and a JSON object body with exactly one member: `{"route":"NAME"}`,
/// `{"credential":"TOKEN"}` (the bearer token whose partition is purged, RFC 6750 `b64token`),
/// `{"subject":"SUB"}` (a signed-URL subject's partition), `{"url":"/mount/path"}` (one URL in every partition, with its
/// derived images), `{"tag":"T"[,"soft":true]}` or `{"all":true}`. Answer `200` `{"purged":N}` after ``MediaService/MediaService/purge(_:)``
/// (audited `purge`).
///
/// Refusals are `application/problem+json` (RFC 9457) with a stable `code`: `404 no-route`
/// (another path), `405 method-not-allowed` (`Allow: POST`), `401 admin-token-required`
/// (`WWW-Authenticate: Bearer realm="mediactl-admin"`), `413 body-too-large`,
/// `400 invalid-purge-request`, `400 invalid-credential`, `400 invalid-subject`, `400 invalid-tag`, `400 invalid-url`,
/// `404 unknown-route`, `500 purge-failed`.
/// No detail ever contains a token.
public struct AdminEndpoint: Sendable {
    /// Endpoint limits.
    public struct Configuration: Sendable, Hashable {
        /// Largest request body accepted, bytes. Default: 16,384.
        public var maximumBodyBytes: Int

        public init(maximumBodyBytes: Int = 16_384) {
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// The path answered: `/_mediactl/purge`.
    public static let purgePath = "/_mediactl/purge"

    /// The service purged.
    public let service: MediaService
    private let adminToken: AdminToken
    /// The endpoint's limits.
    public let configuration: Configuration

    /// - Parameters:
    ///   - service: the running service.
    ///   - adminToken: the token callers must present (``ServeStateFile/makeAdminToken()``).
    ///   - configuration: see ``Configuration``.
    public init(service: MediaService, adminToken: String, configuration: Configuration = Configuration()) {
        self.service = service
        self.adminToken = AdminToken(adminToken)
        self.configuration = configuration
    }

    /// Whether `target` (path and optional query) is this endpoint's path.
    public static func handles(target: String) -> Bool {
        target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == Substring(purgePath)
    }

    /// Answers one request (see the type's documentation). Never throws.
    public func respond(method: HTTPMethod, target: String, fields: HTTPFields, body: [UInt8]) -> ServiceResponse {
        guard Self.handles(target: target) else {
            return Self.problem(404, "no-route", "no endpoint at \(Self.path(of: target))")
        }
        guard method == .post else {
            var response = Self.problem(405, "method-not-allowed", "\(Self.purgePath) answers POST only")
            response.fields.set(.allow, "POST")
            return response
        }
        guard isAuthorized(fields) else {
            var response = Self.problem(
                401, "admin-token-required",
                "\(Self.purgePath) requires the admin token of serve.json as a bearer token")
            response.fields.set(.wwwAuthenticate, "Bearer realm=\"mediactl-admin\"")
            return response
        }
        guard body.count <= configuration.maximumBodyBytes else {
            return Self.problem(
                413, "body-too-large", "the body has \(body.count) bytes; at most \(configuration.maximumBodyBytes)")
        }
        let request: PurgeRequestBody.Request
        switch PurgeRequestBody.parseRequest(body) {
        case .success(let parsed): request = parsed
        case .failure(let refusal): return Self.problem(400, refusal.code, refusal.detail)
        }
        let scope = request.scope
        do {
            if request.receipt {
                // The receipt is a JSON object (docs/audit-format.md, "Erasure receipts"), embedded as it is.
                let (count, receipt) = try service.purgeWithReceipt(scope)
                return Self.json(200, "{\"purged\":\(count),\"receipt\":\(receipt.trimmingCharacters(in: .newlines))}")
            }
            let count = try service.purge(scope)
            // A soft purge says so: its objects are marked stale, not removed.
            if case .tag(_, soft: true) = scope { return Self.json(200, "{\"purged\":\(count),\"soft\":true}") }
            return Self.json(200, "{\"purged\":\(count)}")
        } catch let error as ServiceError where error.code == .unknownRoute {
            return Self.problem(404, "unknown-route", error.context)
        } catch let error as ServiceError where error.code == .invalidSubject {
            return Self.problem(400, "invalid-subject", error.context)
        } catch let error as ServiceError where error.code == .invalidTag {
            return Self.problem(400, "invalid-tag", error.context)
        } catch let error as ServiceError where error.code == .invalidURL {
            return Self.problem(400, "invalid-url", error.context)
        } catch {
            return Self.problem(500, "purge-failed", "\(error)")
        }
    }

    /// Answers a ``MediaService/ServiceRequest``: same as ``respond(method:target:fields:body:)``.
    public func respond(to request: ServiceRequest) -> ServiceResponse {
        respond(method: request.method, target: request.target, fields: request.fields, body: request.body)
    }

    private func isAuthorized(_ fields: HTTPFields) -> Bool {
        adminToken.accepts(fields)
    }

    static func path(of target: String) -> String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func problem(_ status: HTTPStatus, _ code: String, _ detail: String) -> ServiceResponse {
        let problem = ProblemDetails(status: status, code: code, detail: detail)
        return response(status, problem.json, contentType: "application/problem+json")
    }

    static func json(_ status: HTTPStatus, _ text: String) -> ServiceResponse {
        response(status, Array(text.utf8), contentType: "application/json")
    }

    private static func response(_ status: HTTPStatus, _ body: [UInt8], contentType: String) -> ServiceResponse {
        var fields = HTTPFields()
        fields.append(.contentType, contentType)
        fields.append(.contentLength, String(body.count))
        fields.append(.cacheControl, "no-store")
        fields.append(.xContentTypeOptions, "nosniff")
        return ServiceResponse(status: status, fields: fields, body: body, outcome: ServiceOutcome())
    }
}

extension AdminEndpoint {
    /// `POST /_mediactl/purge` as an ``AdminHTTPHandler/Handler``: what `serve` and a kept demo
    /// answer with the admin token they write to `<state>/serve.json`.
    public static func handler(service: MediaService, adminToken: String) -> AdminHTTPHandler.Handler {
        let endpoint = AdminEndpoint(service: service, adminToken: adminToken)
        return { request in
            let fields = request.headerFields
            let answer = endpoint.respond(method: request.method, target: request.target, fields: fields,
                                          body: request.body)
            return MediaHTTPHandler.serverResponse(answer)
        }
    }
}
