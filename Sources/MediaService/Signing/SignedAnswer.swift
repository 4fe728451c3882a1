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
        if let value = cacheControl(response.fields[.cacheControl], status: response.status,
                                    remaining: remaining(expires: expires, now: now)) {
            response.fields.set(.cacheControl, value)
        }
    }

    /// Whole seconds from `now` (rounded up) until `expires`, at least 0.
    static func remaining(expires: Int64, now: Double) -> Int64 {
        max(0, expires - Int64(now.rounded(.up)))
    }

    /// The `Cache-Control` a signed answer carries instead of `value` (its own, or `nil` when it has none), or `nil` to
    /// keep it: `private, max-age=REMAINING` for a 2xx or 304 without one, `no-store` kept, any other capped at
    /// `remaining` seconds (with a `max-age` added when it has none). The hit path keeps it per second.
    static func cacheControl(_ value: String?, status: HTTPStatus, remaining: Int64) -> String? {
        guard let value else {
            return (200...299).contains(status) || status == 304 ? "private, max-age=\(remaining)" : nil
        }
        let directives = CacheControl(value)
        if directives.noStore { return nil }
        var capped = Responder.clamped(value, to: remaining)
        if directives.maxAge == nil { capped += ", max-age=\(remaining)" }
        return capped
    }

    /// A refusal of a signed request: problem+json with `Referrer-Policy: no-referrer`.
    static func refusal(_ status: HTTPStatus, code: String, detail: String, outcome: ServiceOutcome) -> ServiceResponse {
        var response = Responder.problem(status, code: code, detail: detail, outcome: outcome)
        response.fields.set(.referrerPolicy, "no-referrer")
        return response
    }
}
