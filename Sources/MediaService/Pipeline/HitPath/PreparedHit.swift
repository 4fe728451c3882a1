import HTTPCaching
import MediaCore
import MediaStorage

/// A stored entry's answer to a plain `GET`/`HEAD`, built once by ``Responder`` and reused by every
/// memory hit: status, every downstream field in order, body. A hit copies the field list and fills
/// in the two values that change per request, `Age` (RFC 9111 §5.1) and `Cache-Status` (RFC 9211).
///
/// "Plain" means a request without the fields that change the answer (``HitRequest/isPlain(_:)``):
/// then the RFC 9111 decision, the policy's TTL cap and ``Responder/content(_:head:body:context:now:cacheStatus:storage:reason:)``
/// reduce to ``isServable`` and `age < ` ``freshLimit``.
final class PreparedHit: Sendable {
    /// What the prepared fields depend on besides the entry: the tier (downstream `Cache-Control`,
    /// kept fields, `Vary: Authorization`) and whether the URL is versioned (the TTL cap).
    struct Key: Hashable, Sendable {
        var tier: String
        var isVersioned: Bool
        /// The partition the answer was prepared for (a bearer tier's entry belongs to one), or `nil`.
        var partition: String? = nil
        /// Whether the answer was prepared for a signed URL (its fields carry ``SignedAnswer``'s).
        var signed = false
    }

    let key: Key
    /// Whether a plain request selects this entry without looking at its fields and may reuse it
    /// while fresh: stored for `GET`, no `Vary` (RFC 9111 §4.1), no response `no-cache` (§5.2.2.4).
    let isServable: Bool
    /// Seconds of current age (§4.2.3) below which the entry is served fresh: the smaller of its
    /// freshness lifetime (§4.2.1) and the policy TTL cap. `ttl` in `Cache-Status` is this minus the age.
    let freshLimit: Int64
    let status: HTTPStatus
    let fields: HTTPFields
    /// The body length `Content-Length` was prepared for.
    let bodyCount: Int
    let ageIndex: Int
    let cacheStatusIndex: Int
    /// A derived image's parameters and source digest (``ServiceOutcome/variant``), else `nil`.
    let variant: String?
    let derivedFrom: String?
    /// For a signed URL's answer whose fields have a `Cache-Control` line: its index, the line ``SignedAnswer`` rewrites
    /// per second (the fields already end with its `Referrer-Policy`); `nil` otherwise.
    let signedCacheControlIndex: Int?

    /// Prepares `response` (with `head` and `body`) as ``Responder`` answers a plain `GET` for `context`.
    init(_ response: StoredResponse, head: StoredHead, body: [UInt8], context: RequestContext) {
        key = Key(tier: context.tier.name, isVersioned: context.isVersioned, partition: context.partition,
                  signed: context.signature != nil)
        let lifetime = response.freshnessLifetime(role: context.role, configuration: context.tier.freshness)
        freshLimit = min(lifetime, head.policyTTL)
        let template = Responder.content(response, head: head, body: body, context: context, now: response.responseTime,
                                         cacheStatus: CacheStatus(hit: true, ttl: 0), storage: .hit, reason: nil)
        status = template.status
        variant = head.transform
        derivedFrom = head.derivedFrom
        bodyCount = body.count
        var fields = template.fields
        var signedCacheControlIndex: Int?
        if context.signature != nil, let index = fields.fields.firstIndex(where: { HTTPFields.namesEqual($0.name, "Cache-Control") }),
           !fields.contains(.referrerPolicy) {
            // As SignedAnswer.decorate sets it: appended after the fields Responder wrote.
            fields.append(.referrerPolicy, "no-referrer")
            signedCacheControlIndex = index
        }
        self.fields = fields
        self.signedCacheControlIndex = signedCacheControlIndex
        let names = fields.fields.map(\.name)
        let age = names.firstIndex { HTTPFields.namesEqual($0, "Age") }
        let cacheStatus = names.firstIndex { HTTPFields.namesEqual($0, "Cache-Status") }
        ageIndex = age ?? 0
        cacheStatusIndex = cacheStatus ?? 0
        isServable = age != nil && cacheStatus != nil && template.status == response.status
            && response.requestMethod == .get && response.parsed.varyFieldNames != nil && !response.parsed.cacheControl.noCache
    }

    /// The `Age` and `Cache-Status` values at current age `age`, as the full path writes them: `Age`
    /// clamped to `0 ... 2147483648` (RFC 9111 §5.1), `Cache-Status: mediactl; hit; ttl=N` with
    /// N = ``freshLimit`` − `age` (RFC 9211). The hit path keeps them per second, so this runs rarely.
    func texts(age: Int64) -> (age: String, cacheStatus: String) {
        (AgeField.value(for: age), CacheStatus(hit: true, ttl: freshLimit - age).description)
    }

    /// The answer with `texts` (from ``texts(age:)``), the body unless `isHead`, and the outcome of a
    /// hit on `route` (as ``Responder`` gives it: route, tier, `Cache-Status`, storage `hit`, no reason).
    /// - Parameter cacheControl: a signed answer's `Cache-Control` for the line at ``signedCacheControlIndex``; `nil`
    ///   keeps the prepared one.
    func response(texts: (age: String, cacheStatus: String), body: [UInt8], isHead: Bool, route: HitRoute,
                  cacheControl: String? = nil) -> ServiceResponse {
        // One pass into a new buffer (the prepared lines are shared by every hit and never change).
        let prepared = fields.fields
        let lines = [HTTPFields.Field](unsafeUninitializedCapacity: prepared.count) { buffer, count in
            for index in prepared.indices {
                let line = prepared[index]
                var value = index == ageIndex ? texts.age : index == cacheStatusIndex ? texts.cacheStatus : line.value
                if index == signedCacheControlIndex, let cacheControl { value = cacheControl }
                (buffer.baseAddress! + index).initialize(to: HTTPFields.Field(name: line.name, value: value))
            }
            count = prepared.count
        }
        return ServiceResponse(status: status, fields: HTTPFields(lines: lines), body: isHead ? [] : body,
                               outcome: ServiceOutcome(route: route.routeName, tier: route.tierName,
                                                       cacheStatus: texts.cacheStatus, storage: .hit, variant: variant,
                                                       derivedFrom: derivedFrom, partition: key.partition))
    }
}
