import Foundation
import MediaService
import MediaSigning

/// Parses the JSON body of `POST /_mediactl/purge` into a ``MediaService/PurgeScope``.
enum PurgeRequestBody {
    /// Why a body was refused: a stable problem code and a detail (never containing the credential).
    struct Refusal: Error, Hashable {
        let code: String
        let detail: String
    }

    static let shape =
        "the body must be a JSON object with exactly one of route (string), credential (string), subject (string) or all (true)"

    /// `{"route":"NAME"}` → `.route`, `{"credential":"TOKEN"}` → `.credential`, `{"subject":"SUB"}` → `.subject`,
    /// `{"all":true}` → `.all`.
    /// - Returns: the scope, or a refusal with code `invalid-purge-request` (bad shape),
    ///   `invalid-credential` (not an RFC 6750 `b64token`) or `invalid-subject` (not 1–128 of `[A-Za-z0-9._-]`).
    static func parse(_ body: [UInt8]) -> Result<PurgeScope, Refusal> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], object.count == 1,
            let (name, value) = object.first
        else { return .failure(Refusal(code: "invalid-purge-request", detail: shape)) }
        switch name {
        case "route":
            guard let route = value as? String, !route.isEmpty else { break }
            return .success(.route(route))
        case "credential":
            guard let text = value as? String else { break }
            guard let token = try? BearerToken(token: text) else {
                return .failure(
                    Refusal(
                        code: "invalid-credential", detail: "the credential is not a bearer token (RFC 6750 b64token)"))
            }
            return .success(.credential(token))
        case "subject":
            guard let subject = value as? String else { break }
            guard SignedURLParameters.isSubject(subject) else {
                return .failure(Refusal(code: "invalid-subject", detail: "the subject is not 1 to 128 of A-Z a-z 0-9 . _ -"))
            }
            return .success(.subject(subject))
        case "all":
            guard let all = value as? Bool, all else { break }
            return .success(.all)
        default:
            break
        }
        return .failure(Refusal(code: "invalid-purge-request", detail: shape))
    }

}
