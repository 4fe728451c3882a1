import HTTPCaching
import MediaAudit
import MediaCore
import MediaPolicy
import MediaStorage

extension StoreCommit {
    /// Negative caching (docs/policy-format.md, "Negative caching"): the problem answered for an origin error, stored
    /// as the tier's `errorTTL` allows so that the next request for the URL does not reach the origin.
    ///
    /// The stored response is mediactl's own answer: `problem`'s status, `Content-Type: application/problem+json`,
    /// its body, and `Cache-Control: max-age=N`, N being the tier's `errorTTL` for `key`, or less when the origin's
    /// answer gave a shorter explicit freshness (RFC 9111 §4.2.1, its current age deducted). An origin answer that
    /// forbids storage (`no-store`, `private`, `Vary: *`, in `Cache-Control` or the tier's targeted field) is not
    /// stored. The decision passes the hook chain like any other (``StorageProposal/negative``), and the `store`
    /// record carries the status.
    /// - Parameters:
    ///   - key: the ``MediaPolicy/Tier/errorTTLKeys`` key (`"404"`, `"refused"`).
    ///   - problem: the answer for the error (what is stored and served).
    ///   - origin: the origin's response fields, `nil` when the exchange gave none (over the size limit, a redirect).
    ///   - originStatus: the status the origin answered (RFC 9211 `fwd-status`: a refused `200 text/html` says `200`,
    ///     not the `502` answered), `nil` when no answer came (a redirect or an answer over the size limit).
    ///   - fields: the request fields sent to the origin.
    /// - Returns: `nil` when the tier keeps no negative entry for `key` (the caller refuses as before), else the
    ///   exchange that answers with `problem`, stored or not.
    func storeNegative(_ context: RequestContext, key: String, problem: ServiceResponse, origin: HTTPFields?,
                       originStatus: HTTPStatus?, fields: HTTPFields, requestTime: Double, responseTime: Double, reason: CacheStatus.Forward) -> Exchange? {
        let tier = context.tier
        guard let limit = tier.errorLifetime(key: key) else { return nil }
        let responseTime64 = Int64(responseTime)
        var storability = StorageProposal.Storability.storable(ttl: limit)
        if let origin {
            // The origin's own word on storage and freshness, judged as if its status were storable.
            switch StoredResponse.storing(method: "GET", requestFields: fields, status: 200, responseFields: origin,
                                          role: context.role, requestTime: Int64(requestTime), responseTime: responseTime64,
                                          digest: digest, targets: context.targets) {
            case .skip(let why):
                storability = .notStorable(StorageReason(why.code))
            case .store(let response):
                let explicit = Freshness.lifetime(
                    status: 200, cacheControl: response.parsed.cacheControl, date: response.parsed.date,
                    expires: response.parsed.expires, lastModified: nil, responseTime: responseTime64, role: context.role,
                    configuration: Freshness.Configuration(usesHeuristic: false))
                if explicit.source != .none {
                    let left = max(0, explicit.seconds - response.currentAge(now: responseTime64))
                    storability = .storable(ttl: Int(min(Int64(limit), left)))
                }
            }
        }
        // Stale on arrival (`max-age=0`, an `Expires` in the past): nothing to keep, and nothing to revalidate with.
        if case .storable(0) = storability { storability = .notStorable(StorageReason("stale-on-arrival")) }
        let ttl = if case .storable(let seconds) = storability { seconds } else { 0 }
        var own = HTTPFields()
        own.append(.contentType, "application/problem+json")
        own.append(.contentLength, String(problem.body.count))
        own.append(.cacheControl, "max-age=\(ttl)")
        let stored = StoredResponse(status: problem.status, fields: own, requestTime: Int64(requestTime),
                                    responseTime: responseTime64, targets: context.targets)
        let proposal = StorageProposal(
            tier: tier, route: context.route,
            request: .init(hasCredential: context.hasCredential, hasVersionParameter: context.isVersioned,
                           isRangeRequest: fields.contains(.range), purgedDuringExchange: wasPurgedDuringExchange(context)),
            response: .init(status: problem.status, fields: own),
            body: .init(byteCount: problem.body.count, format: "application/problem+json"),
            storability: storability, negative: key)
        let decision = chain.decide(proposal)
        let storeKey = CacheKey.store(group: context.groupKey, secondary: stored.secondaryKey)
        let head = StoredHead(stored, contentType: "application/problem+json", width: nil, height: nil,
                              storage: decision.storage.rawValue, policyTTL: Int64(decision.ttl))
        let entry = StoredEntry(
            metadata: EntryMetadata(key: storeKey, tier: tier.name, route: context.route.name, partition: context.partition,
                                    head: head.encoded(), requestTime: requestTime, responseTime: responseTime,
                                    expiresAt: responseTime + Double(max(decision.ttl, 1)), lifetime: Double(decision.ttl),
                                    tags: origin.map { cacheTags(in: $0, tier: tier) } ?? []),
            body: problem.body)
        let content = storeDecided(entry, response: stored, head: head, decision: decision,
                                   subject: context.subject(storeKey: storeKey), context: context,
                                   status: CacheStatus(forward: reason, forwardStatus: originStatus),
                                   negative: problem.status)
        if content.storeKey != nil {
            // The source is gone: what was derived from it goes too (docs/variants.md).
            dropVariants(ofSource: context.groupKey, in: context.runtime)
        }
        return Exchange(result: .content(content), shareable: true)
    }
}
