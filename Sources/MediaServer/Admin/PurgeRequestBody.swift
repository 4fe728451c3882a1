import MediaCore
import MediaService
import MediaPolicy
import MediaSigning

/// Parses the JSON body of `POST /_mediactl/purge` into a ``MediaService/PurgeScope``.
enum PurgeRequestBody {
    /// Why a body was refused: a stable problem code and a detail (never containing the credential).
    struct Refusal: Error, Hashable {
        let code: String
        let detail: String
    }

    static let shape =
        "the body must be a JSON object with exactly one of route (string), credential (string), subject (string), url (string), tag (string; with soft: true to mark stale) or all (true)"

    /// `{"route":"NAME"}` → `.route`, `{"credential":"TOKEN"}` → `.credential`, `{"subject":"SUB"}` → `.subject`,
    /// `{"url":"/mount/path"}` → `.url`,
    /// `{"tag":"T"}` → `.tag(T, soft: false)`, `{"tag":"T","soft":true}` → `.tag(T, soft: true)`, `{"all":true}` → `.all`.
    /// - Returns: the scope, or a refusal with code `invalid-purge-request` (bad shape),
    ///   `invalid-credential` (not an RFC 6750 `b64token`), `invalid-subject` (not 1–128 of `[A-Za-z0-9._-]`) or
    ///   `invalid-tag` (not 1–256 visible ASCII characters).
    static func parse(_ body: [UInt8]) -> Result<PurgeScope, Refusal> {
        parseRequest(body).map(\.scope)
    }

    /// A purge request: its scope, and whether the answer carries an erasure receipt (`"receipt":true`, with
    /// `credential` or `subject` only).
    struct Request: Hashable {
        var scope: PurgeScope
        var receipt: Bool
    }

    /// ``parse(_:)``, with `"receipt":true` allowed beside `credential` or `subject`.
    /// - Returns: the request, or the refusals of ``parse(_:)``; `invalid-purge-request` (`receipt is allowed only with
    ///   credential or subject, as true`) for a receipt elsewhere.
    static func parseRequest(_ body: [UInt8]) -> Result<Request, Refusal> {
        let receiptRefusal = Refusal(code: "invalid-purge-request", detail: "receipt is allowed only with credential or subject, as true")
        // Strict JSON with members in order: a repeated key is refused, never resolved to its first or last value
        // (a proxy in front may have read the other one).
        guard case .object(let members) = try? JSONParser.parse(body),
              Set(members.map(\.key)).count == members.count
        else { return .failure(Refusal(code: "invalid-purge-request", detail: shape)) }
        var object = members
        var receipt = false
        if let index = object.firstIndex(where: { $0.key == "receipt" }) {
            guard case .bool(true) = object[index].value,
                  object.contains(where: { $0.key == "credential" || $0.key == "subject" }) else { return .failure(receiptRefusal) }
            receipt = true
            object.remove(at: index)
        }
        var soft = false
        if object.count == 2, object.contains(where: { $0.key == "tag" }), let index = object.firstIndex(where: { $0.key == "soft" }) {
            guard case .bool(let flag) = object[index].value else {
                return .failure(Refusal(code: "invalid-purge-request", detail: shape))
            }
            soft = flag
            object.remove(at: index)
        }
        guard object.count == 1, let name = object.first?.key, let value = object.first?.value
        else { return .failure(Refusal(code: "invalid-purge-request", detail: shape)) }
        switch name {
        case "route":
            guard case .string(let route) = value, !route.isEmpty else { break }
            return .success(Request(scope: .route(route), receipt: receipt))
        case "credential":
            guard case .string(let text) = value else { break }
            guard let token = try? BearerToken(token: text) else {
                return .failure(
                    Refusal(
                        code: "invalid-credential", detail: "the credential is not a bearer token (RFC 6750 b64token)"))
            }
            return .success(Request(scope: .credential(token), receipt: receipt))
        case "subject":
            guard case .string(let subject) = value else { break }
            guard SignedURLParameters.isSubject(subject) else {
                return .failure(Refusal(code: "invalid-subject", detail: "the subject is not 1 to 128 of A-Z a-z 0-9 . _ -"))
            }
            return .success(Request(scope: .subject(subject), receipt: receipt))
        case "url":
            guard case .string(let url) = value, url.hasPrefix("/") else { break }
            return .success(Request(scope: .url(url), receipt: receipt))
        case "tag":
            guard case .string(let tag) = value else { break }
            guard Tier.isCacheTag(tag) else {
                return .failure(Refusal(code: "invalid-tag", detail: "the tag is not 1 to 256 visible ASCII characters (no space)"))
            }
            return .success(Request(scope: .tag(tag, soft: soft), receipt: receipt))
        case "all":
            guard case .bool(true) = value else { break }
            return .success(Request(scope: .all, receipt: receipt))
        default:
            break
        }
        return .failure(Refusal(code: "invalid-purge-request", detail: shape))
    }

}
