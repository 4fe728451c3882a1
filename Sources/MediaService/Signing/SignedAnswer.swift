import HTTPCaching
import MediaCore
import MediaSigning

/// What every answer to a signed request carries (docs/signed-urls.md, "What the client receives"):
/// `Referrer-Policy: no-referrer`, so the capability never leaks through `Referer`, and a `Cache-Control`
/// whose `max-age` is never longer than the signature's remaining lifetime.
enum SignedAnswer {
    /// `response` with ``SignedAnswer``'s fields for a signature expiring at `expires` (Unix seconds), at `now`.
    static func decorate(_ response: inout ServiceResponse, expires: Int64, now: Double) {
        response.fields.set(.referrerPolicy, "no-referrer")
        let remaining = max(0, expires - Int64(now.rounded(.up)))
        guard let value = response.fields[.cacheControl] else {
            if (200...299).contains(response.status) || response.status == 304 {
                response.fields.set(.cacheControl, "private, max-age=\(remaining)")
            }
            return
        }
        let directives = CacheControl(value)
        if directives.noStore { return }
        var capped = Responder.clamped(value, to: remaining)
        if directives.maxAge == nil { capped += ", max-age=\(remaining)" }
        response.fields.set(.cacheControl, capped)
    }

    /// A refusal of a signed request: problem+json with `Referrer-Policy: no-referrer`.
    static func refusal(_ status: HTTPStatus, code: String, detail: String, outcome: ServiceOutcome) -> ServiceResponse {
        var response = Responder.problem(status, code: code, detail: detail, outcome: outcome)
        response.fields.set(.referrerPolicy, "no-referrer")
        return response
    }
}
