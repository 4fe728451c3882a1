import MediaCore
import Foundation
import HTTPCaching
import HTTPServer
import MediaService

/// `POST /_mediactl/admin/reload` on the admin listener: re-reads the policies (``PolicyReloader``) and
/// answers the validation result, so `mediactl reload` can exit 1 with the same problems `mediactl policy
/// check` prints.
///
/// Request: `Authorization: Bearer <adminToken>` (serve.json's), no body (at most 16,384 bytes, ignored).
/// Answers (JSON, `Cache-Control: no-store`):
/// - `200` `{"added":[…],"digest":"<sha256>","kept":[…],"previousDigest":"<sha256>","removed":N,"removedTiers":[…],
///   "replaced":[…],"routes":R,"tiers":T,"updated":[…]}` (tier names; see ``MediaService/PolicyReloadReport``);
/// - `422` problem+json `invalid-policy`: `detail` is the closing line
///   (`reload failed: N problem(s) in DIR; the policies in force stay (sha256 …)`) and the extension member
///   `problems` lists each problem as `policy check` prints it (without the `mediactl: ` prefix);
/// - `401` `admin-token-required` (`WWW-Authenticate: Bearer realm="mediactl-admin"`), `413` `body-too-large`,
///   `500` `reload-failed` (the service failed the swap).
public enum ReloadEndpoint {
    /// The largest body accepted, bytes.
    static let maximumBodyBytes = 16_384

    /// The handler for ``AdminHTTPHandler/reload``.
    public static func handler(reloader: PolicyReloader, adminToken: String) -> AdminHTTPHandler.Handler {
        let token = AdminToken(adminToken)
        return { request in
            let fields = request.headerFields
            guard token.accepts(fields) else {
                var response = MediaHTTPHandler.problem(
                    401, code: "admin-token-required",
                    detail: "\(AdminHTTPHandler.reloadPath) requires the admin token of serve.json as a bearer token")
                response.headerFields.append(.wwwAuthenticate, "Bearer realm=\"mediactl-admin\"")
                return response
            }
            guard request.body.count <= maximumBodyBytes else {
                return MediaHTTPHandler.problem(
                    413, code: "body-too-large", detail: "the body has \(request.body.count) bytes; at most \(maximumBodyBytes)")
            }
            let outcome = await OffPool.run { reloader.reload(trigger: "admin request") }
            return response(for: outcome)
        }
    }

    static func response(for outcome: PolicyReloader.Outcome) -> HTTPServerResponse {
        switch outcome {
        case .reloaded(let report, let routes, let tiers):
            let object: [String: Any] = [
                "digest": report.digest, "previousDigest": report.previousDigest, "kept": report.keptTiers,
                "updated": report.updatedTiers, "replaced": report.replacedTiers, "added": report.addedTiers,
                "removedTiers": report.removedTiers, "removed": report.removedObjects, "routes": routes, "tiers": tiers,
            ]
            return json(200, object, contentType: "application/json")
        case .invalid(let problems, let summary):
            let problem = ProblemDetails(status: 422, code: "invalid-policy", detail: summary)
            let object: [String: Any] = [
                "type": problem.type, "title": problem.title, "status": 422, "detail": summary, "code": problem.code,
                "problems": problems,
            ]
            return json(422, object, contentType: "application/problem+json")
        case .failed(let message):
            return MediaHTTPHandler.problem(500, code: "reload-failed", detail: message)
        }
    }

    private static func json(_ status: HTTPStatus, _ object: [String: Any], contentType: String) -> HTTPServerResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return HTTPServerResponse(
            status: status,
            headerFields: [(.contentType, contentType), (.cacheControl, "no-store"), (.xContentTypeOptions, "nosniff")],
            body: [UInt8](data))
    }
}
