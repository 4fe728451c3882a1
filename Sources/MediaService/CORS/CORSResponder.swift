import HTTPCaching
import MediaCore
import MediaPolicy

/// CORS answered by mediactl itself on routes with `cors` (Fetch standard, "CORS protocol";
/// docs/signed-urls.md, "CORS"): preflights, the fields added to every answer of the route, and the origin's
/// own CORS fields kept out of what is stored and served.
enum CORSResponder {
    /// Response fields of the CORS protocol, lower case: the origin's are dropped on `cors` routes.
    static func isCORSField(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("access-control-") || lower == "timing-allow-origin"
    }

    /// The outcome reason of a preflight answer (already complete: ``decorate(_:cors:origin:)`` leaves it alone).
    static let preflightReason = "cors-preflight"

    /// The fields a CORS read exposes to scripts besides the CORS-safelisted ones.
    static let exposedFields = "Age, Cache-Status, ETag"

    /// Whether `request` is a CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`.
    static func isPreflight(_ request: ServiceRequest) -> Bool {
        request.method == .options && request.fields.contains(.origin)
            && request.fields.contains(.accessControlRequestMethod)
    }

    /// The answer to a preflight on a route with `cors`: `204` with `Access-Control-Allow-Origin`,
    /// `Access-Control-Allow-Methods: GET, HEAD`, `Access-Control-Max-Age`, with `allowAuthorization`
    /// `Access-Control-Allow-Headers: Authorization`, and `Vary: Origin`; for an origin not listed, `403`
    /// problem `cors-origin-not-allowed` without CORS fields. Never reaches the origin.
    static func preflight(_ request: ServiceRequest, cors: CORSPolicy, outcome: ServiceOutcome) -> ServiceResponse {
        let origin = request.fields[.origin] ?? ""
        guard cors.allows(origin) else {
            var refusal = Responder.problem(403, code: "cors-origin-not-allowed",
                                            detail: "this origin may not read the route's answers", outcome: outcome)
            refusal.fields.append(.vary, "Origin")
            return refusal
        }
        var fields = HTTPFields()
        fields.append(.accessControlAllowOrigin, origin)
        fields.append(.accessControlAllowMethods, "GET, HEAD")
        if cors.allowAuthorization { fields.append(.accessControlAllowHeaders, "Authorization") }
        fields.append(.accessControlMaxAge, String(cors.maxAge))
        fields.append(.vary, "Origin")
        fields.append(.cacheControl, "no-store")
        fields.append(.xContentTypeOptions, "nosniff")
        var outcome = outcome
        outcome.reason = preflightReason
        return ServiceResponse(status: 204, fields: fields, body: [], outcome: outcome)
    }

    /// `response` as a `cors` route sends it: the origin's CORS fields removed, `Vary: Origin` added; for a
    /// listed `origin`, `Access-Control-Allow-Origin` and `Timing-Allow-Origin` with it and
    /// `Access-Control-Expose-Headers` (``exposedFields``).
    static func decorate(_ response: inout ServiceResponse, cors: CORSPolicy, origin: String?) {
        var fields = response.fields
        if fields.fields.contains(where: { isCORSField($0.name) }) {
            fields = HTTPFields(lines: fields.fields.filter { !isCORSField($0.name) })
        }
        if !fields.listValues(for: .vary).contains(where: { HTTPFields.namesEqual(String($0), "Origin") }) {
            fields.append(.vary, "Origin")
        }
        if let origin, cors.allows(origin) {
            fields.append(.accessControlAllowOrigin, origin)
            fields.append(.accessControlExposeHeaders, exposedFields)
            fields.append(.timingAllowOrigin, origin)
        }
        response.fields = fields
    }

    /// An origin's answer on a `cors` route before it is validated, stored or served: its CORS fields dropped
    /// and `Origin` removed from its `Vary` (the origin never saw the field: mediactl does not send it).
    static func originFieldsWithoutCORS(_ fields: HTTPFields) -> HTTPFields {
        let varies = fields.listValues(for: .vary)
        let hasOriginVary = varies.contains { HTTPFields.namesEqual(String($0), "Origin") }
        guard hasOriginVary || fields.fields.contains(where: { isCORSField($0.name) }) else { return fields }
        var kept = fields.fields.filter { !isCORSField($0.name) && !HTTPFields.namesEqual($0.name, "Vary") }
        let others = varies.filter { !HTTPFields.namesEqual(String($0), "Origin") }
        if !others.isEmpty { kept.append(HTTPFields.Field(name: "Vary", value: others.joined(separator: ", "))) }
        return HTTPFields(lines: kept)
    }
}
