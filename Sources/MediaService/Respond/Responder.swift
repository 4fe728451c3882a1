import HTTPCaching
import MediaCore
import MediaPolicy

/// Builds the service's responses (step 9 of the request flow): the tier's downstream
/// `Cache-Control`, `Cache-Status` (RFC 9211), `Age` (RFC 9111 §5.1), validators, `Vary:
/// Authorization` on partitioned tiers, `X-Content-Type-Options: nosniff`, and the sniffed
/// `Content-Type`; client conditionals answered 304 (RFC 9110 §13); a `GET` with `Range` of a complete `200`
/// answered 206 or 416 (RFC 9110 §14); problems as RFC 9457 JSON.
enum Responder {
    /// The only stored-response fields an image client receives (`Vary` so that downstream caches
    /// keep the variants apart, RFC 9110 §12.5.5).
    /// CORS and resource-policy fields pass too, so `crossorigin` images and canvases keep working.
    /// Names are sent in their canonical case (`ETag`, whatever the transport made of it).
    static let imageTierFieldsKept: [String: String] = [
        "etag": "ETag", "last-modified": "Last-Modified", "content-type": "Content-Type",
        "content-language": "Content-Language", "vary": "Vary",
        "access-control-allow-origin": "Access-Control-Allow-Origin",
        "access-control-allow-credentials": "Access-Control-Allow-Credentials",
        "access-control-expose-headers": "Access-Control-Expose-Headers",
        "timing-allow-origin": "Timing-Allow-Origin",
        "cross-origin-resource-policy": "Cross-Origin-Resource-Policy",
    ]

    /// `Mediactl-Image-Width`: a derived image's width in pixels, on every answer that carries one.
    static let imageWidthField = HTTPFieldName("Mediactl-Image-Width")
    /// `Mediactl-Animation: first-frame; frames=N`: a derived image of an animated source (N frames) is its first frame.
    static let animationField = HTTPFieldName("Mediactl-Animation")
    /// `Mediactl-Image-Height`: a derived image's height in pixels, on every answer that carries one.
    static let imageHeightField = HTTPFieldName("Mediactl-Image-Height")

    /// ``imageTierFieldsKept``'s canonical spelling for `name`, or `nil`: ASCII names are compared ignoring ASCII
    /// case with the few kept names of their length (no lower-cased copy, no hashing); other names take the
    /// dictionary with `lowercased()`, as before.
    static func keptImageTierName(_ name: String) -> String? {
        // A match ignoring ASCII case means an ASCII name, whose `lowercased()` is that kept name: the same answer.
        let count = name.utf8.count
        if count < imageTierKeptByLength.count {
            for (lower, canonical) in imageTierKeptByLength[count] where HTTPFields.namesEqual(name, lower) { return canonical }
        }
        return HeaderHygiene.isASCII(name) ? nil : imageTierFieldsKept[name.lowercased()]
    }

    /// ``imageTierFieldsKept`` grouped by the length of the lower-case name (index = length).
    static let imageTierKeptByLength: [[(lower: String, canonical: String)]] = {
        var table = [[(lower: String, canonical: String)]](
            repeating: [], count: (imageTierFieldsKept.keys.map(\.utf8.count).max() ?? 0) + 1)
        for (lower, canonical) in imageTierFieldsKept.sorted(by: { $0.key < $1.key }) {
            table[lower.utf8.count].append((lower, canonical))
        }
        return table
    }()

    /// A problem+json response (RFC 9457) with `Cache-Control: no-store`.
    static func problem(_ status: HTTPStatus, code: String, detail: String, outcome: ServiceOutcome) -> ServiceResponse {
        let body = ProblemDetails(status: status, code: code, detail: detail).json
        var fields = HTTPFields()
        fields.append(.contentType, "application/problem+json")
        fields.append(.contentLength, String(body.count))
        fields.append(.cacheControl, "no-store")
        fields.append(.xContentTypeOptions, "nosniff")
        var outcome = outcome
        outcome.reason = outcome.reason ?? code
        return ServiceResponse(status: status, fields: fields, body: body, outcome: outcome)
    }

    /// The tier's downstream `Cache-Control`, never more permissive than the origin's: when the
    /// origin says `no-store` or (unqualified) `private` and the tier's value says neither, the
    /// origin's value is sent, so no downstream cache keeps what the origin keeps out of shared
    /// caches (RFC 9111 §5.2.2.5 and §5.2.2.7).
    static func downstreamCacheControl(_ tier: Tier, origin: HTTPFields) -> String? {
        let originValue = origin[.cacheControl]
        guard let configured = tier.downstreamCacheControl(origin: originValue) else { return nil }
        guard let originValue, configured != originValue else { return configured }
        let originDirectives = CacheControl(originValue)
        guard originDirectives.noStore || (originDirectives.isPrivate && originDirectives.privateFieldNames.isEmpty)
        else { return configured }
        let configuredDirectives = CacheControl(configured)
        if configuredDirectives.noStore || configuredDirectives.isPrivate && !originDirectives.noStore { return configured }
        return originValue
    }

    /// The origin's `Cache-Control` passed downstream with `max-age` and `s-maxage` lowered to the tier's
    /// cap (e.g. `unversionedMaxTTL`), so clients keep an image no longer than mediactl itself would.
    static func clamped(_ value: String, to cap: Int64) -> String {
        let members = HTTPFieldList.split(value[...]).map { member -> String in
            let parts = member.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return String(member) }
            let name = parts[0].lowercased()
            guard name == "max-age" || name == "s-maxage",
                  let seconds = Int64(parts[1].trimmingCharacters(in: ["\""])), seconds > cap else { return String(member) }
            return "\(parts[0])=\(cap)"
        }
        return members.joined(separator: ", ")
    }

    /// `response` as clients see its validators: with the stripped original's own `ETag` when it has one.
    static func servedValidators(_ response: StoredResponse, _ head: StoredHead) -> StoredResponse {
        guard let servedETag = head.servedETag else { return response }
        var served = response
        served.fields.set(.eTag, servedETag)
        return served
    }

    /// The answer `representation` gets (RFC 9111 §4: a stored response served, or what an exchange produced):
    /// ``stored(_:context:now:status:storage:)`` or ``content(_:head:body:context:now:cacheStatus:storage:reason:)``.
    static func respond(_ representation: Representation, context: RequestContext, now: Int64, status: CacheStatus,
                        storage: Provenance, reason: String? = nil) -> ServiceResponse {
        switch representation {
        case .stored(let candidate):
            stored(candidate, context: context, now: now, status: status, storage: storage)
        case .exchanged(let content):
            Self.content(content.response, head: content.head, body: content.body, context: context, now: now,
                         cacheStatus: status, storage: storage, reason: reason)
        }
    }

    /// A response served from a stored candidate.
    static func stored(_ candidate: Candidate, context: RequestContext, now: Int64, status: CacheStatus,
                       storage: Provenance) -> ServiceResponse {
        var response = content(candidate.response, head: candidate.head, body: candidate.entry.body, context: context,
                               now: now, cacheStatus: status, storage: storage, reason: nil)
        if response.bodyCount != 0 { response.content.owner = candidate.entry.owner }
        return response
    }

    /// A response carrying `response`'s representation.
    static func content(_ response: StoredResponse, head: StoredHead, body: [UInt8], context: RequestContext,
                        now: Int64, cacheStatus: CacheStatus, storage: Provenance, reason: String?) -> ServiceResponse {
        let tier = context.tier
        var fields = HTTPFields()
        fields.reserveCapacity(response.fields.count + 11)  // the kept lines plus the ≤ 10 this function sets
        if tier.validatesImages {
            for field in response.fields {
                if let name = keptImageTierName(field.name) { fields.append(HTTPFieldName(name), field.value) }
            }
            if let contentType = head.contentType { fields.set(.contentType, contentType) }
        } else {
            for field in response.fields where !["age", "content-length", "cache-control"].contains(field.name.lowercased()) {
                if let tagHeader = tier.tagHeader, HTTPFields.namesEqual(field.name, tagHeader) { continue }
                fields.append(field)
            }
        }
        if let servedETag = head.servedETag { fields.set(.eTag, servedETag) }
        if head.transform != nil, let width = head.width, let height = head.height {
            // A derived image's own size (never wider than its source, which is never enlarged): what a page's
            // `width`/`height` attributes need, and what `mediactl inspect` shows.
            fields.set(imageWidthField, String(width))
            fields.set(imageHeightField, String(height))
            if let frames = head.sourceFrames { fields.set(animationField, "first-frame; frames=\(frames)") }
        }
        fields.set(.age, response.ageFieldValue(now: now))
        if tier.validatesImages, response.status != 200, let own = response.fields[.cacheControl] {
            // A negative entry (docs/policy-format.md, "Negative caching"): its own `max-age`, never the tier's.
            fields.set(.cacheControl, own)
        } else if var cacheControl = downstreamCacheControl(tier, origin: response.fields) {
            if tier.validatesImages && tier.downstreamCacheControl == nil {
                cacheControl = clamped(cacheControl, to: Int64(tier.ttlCap(versioned: context.isVersioned)))
            }
            fields.set(.cacheControl, cacheControl)
        }
        if tier.partition == .credential,
           !fields.listValues(for: .vary).contains(where: { HTTPFields.namesEqual(String($0), "Authorization") }) {
            fields.append(.vary, "Authorization")
        }
        fields.set(.xContentTypeOptions, "nosniff")
        let cacheStatusValue = cacheStatus.description
        fields.set(.cacheStatus, cacheStatusValue)
        var outcome = context.outcome
        outcome.cacheStatus = cacheStatusValue
        outcome.storage = storage
        outcome.reason = reason
        let notModified = (200...299).contains(response.status)
            && ConditionalRequest.isNotModified(requestFields: context.clientFields, stored: servedValidators(response, head))
        if notModified {
            fields.remove(.contentType)
            fields.remove(.contentLanguage)
            return ServiceResponse(status: 304, fields: fields, body: [], outcome: outcome)
        }
        if response.status == 200 {
            // Ranges are served from every complete 200 this builds (RFC 9110 §14.3).
            fields.set(.acceptRanges, "bytes")
            if context.method == .get, let range = context.clientFields[.range] {
                if let partial = ranged(range, response: response, head: head, body: body, fields: fields,
                                        context: context, outcome: outcome) { return partial }
            }
        }
        if response.status != 304 && response.status != 204 { fields.set(.contentLength, String(body.count)) }
        return ServiceResponse(status: response.status, fields: fields, body: context.method == .head ? [] : body,
                               outcome: outcome)
    }

    /// The answer to a `GET` with `Range` (value `range`) from the complete `200` `response` whose downstream
    /// `fields` are built: `206` with `Content-Range`, its `Content-Length` and the slice of `body` for one
    /// satisfiable range; `416` problem with `Content-Range: bytes */<length>` when none is satisfiable; `nil`
    /// (send the whole representation) when `Range` is ignored: invalid, another unit, several ranges, or an
    /// `If-Range` that does not match the served validators (RFC 9110 §14.2, §13.1.5, §15.3.7, §15.5.17).
    static func ranged(_ range: String, response: StoredResponse, head: StoredHead, body: [UInt8], fields: HTTPFields,
                       context: RequestContext, outcome: ServiceOutcome) -> ServiceResponse? {
        // The validator clients see: a stripped original's own `ETag`, else the stored one.
        let entityTag = if let served = head.servedETag { EntityTag(served) } else { response.parsed.entityTag }
        let selection = RangeSelection.evaluate(
            method: "GET", range: range, ifRange: context.clientFields[.ifRange], status: 200, length: body.count,
            entityTag: entityTag, lastModified: response.parsed.lastModified,
            date: response.parsed.date ?? response.responseTime)
        switch selection {
        case .full:
            return nil
        case .partial(let part):
            var fields = fields
            fields.set(.contentRange, ContentRange.value(part, completeLength: body.count))
            fields.set(.contentLength, String(part.count))
            return ServiceResponse(status: 206, fields: fields, storage: body, range: part.offsets, outcome: outcome)
        case .unsatisfiable:
            var problem = problem(416, code: "range-not-satisfiable",
                                  detail: "no range of the Range field starts within the \(body.count) bytes of the representation",
                                  outcome: outcome)
            problem.fields.set(.contentRange, ContentRange.unsatisfied(completeLength: body.count))
            problem.fields.set(.acceptRanges, "bytes")
            if let cacheStatus = fields[.cacheStatus] { problem.fields.set(.cacheStatus, cacheStatus) }
            return problem
        }
    }

    /// The problem answered for an origin exchange that threw `error` (504 for `timeout`, else 502):
    /// code `origin-<error code>`, and a detail carrying the transport's own reason
    /// (``OriginError/context``, which never holds a URL, credential or body byte):
    /// - `timeout`: `the origin timed out: <context> (the tier's originTimeout is <n> s)` (an idle
    ///   stall and the whole-answer limit read differently);
    /// - otherwise: `the origin exchange failed: <context>` (cannot connect, closed mid-body, TLS…).
    static func originFailureProblem(_ error: OriginError, tier: Tier, outcome: ServiceOutcome) -> ServiceResponse {
        let detail = error.code == .timeout
            ? "the origin timed out: \(error.context) (the tier's originTimeout is \(seconds(tier.originTimeout)) s)"
            : "the origin exchange failed: \(error.context)"
        return Responder.problem(error.httpStatus, code: "origin-" + error.code.description, detail: detail, outcome: outcome)
    }

    /// `15` for 15.0, `0.5` for 0.5: seconds as a policy file writes them.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `response` as sent: with the route's CORS fields (``CORSResponder``, when the route has `cors`) and, for a
    /// signed request, ``SignedAnswer``'s. Costs one dictionary check when no route has `cors`.
    static func finished(_ response: consuming ServiceResponse, _ request: ServiceRequest, _ context: RequestContext?,
                         cors: [String: CORSPolicy], now: Double) -> ServiceResponse {
        var response = response
        if let context, let signature = context.signature {
            context.runtime.counters.signed.count("verified")
            SignedAnswer.decorate(&response, expires: signature.expires, now: now)
        }
        if !cors.isEmpty, let route = response.outcome.route, response.outcome.reason != CORSResponder.preflightReason,
           let policy = context?.cors ?? cors[route] {
            CORSResponder.decorate(&response, cors: policy, origin: request.fields[.origin])
        }
        return response
    }
}
