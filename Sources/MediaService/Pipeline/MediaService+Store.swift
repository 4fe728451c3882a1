import HTTPCaching
import MediaCore
import MediaPolicy
import MediaStorage
import Synchronization

extension MediaService {
    /// Steps 6–8: RFC 9111 storability, the hook chain, the store, the audit record.
    /// The audit record is written before the bytes: an object never exists without its record.
    /// - Parameter servedETag: the `ETag` served for a stripped original (``StoredHead/servedETag``), or `nil`.
    func decideAndStore(_ context: RequestContext, response: OriginResponse, fields: HTTPFields, image: ImageInfo?,
                        requestTime: Double, responseTime: Double, reason: CacheStatus.Forward,
                        servedETag: String? = nil) -> Exchange {
        let tier = context.tier
        var responseFields = response.fields
        if let image {
            // The declared type never decides; the origin's cookies never reach image clients.
            responseFields.set("Content-Type", image.format.mimeType)
            responseFields.remove("Set-Cookie")
        }
        responseFields.set("Content-Length", String(response.body.count))
        let outcome = StoredResponse.storing(
            method: "GET", requestFields: fields, status: response.status, responseFields: responseFields,
            role: context.role, requestTime: Int64(requestTime), responseTime: Int64(responseTime), digest: digest,
            targets: context.targets)
        let stored: StoredResponse
        let storability: StorageProposal.Storability
        switch outcome {
        case .store(let candidate):
            stored = candidate
            storability = .storable(ttl: Int(candidate.remainingFreshness(now: Int64(responseTime), role: context.role)))
        case .skip(let why):
            stored = StoredResponse(status: response.status, fields: StoredFields.filter(responseFields, role: context.role),
                                    requestTime: Int64(requestTime), responseTime: Int64(responseTime), targets: context.targets)
            storability = .notStorable(StorageReason(why.code))
        }
        // The hook chain owns every veto (docs/architecture.md): an answer to a range request, a cookie in a shared
        // cache (image tiers dropped it above; a qualified `private="Set-Cookie"` or `no-cache="Set-Cookie"` already
        // kept it out of `stored`), a purge during the exchange.
        let proposal = StorageProposal(
            tier: tier, route: context.route,
            request: .init(hasCredential: context.hasCredential, hasVersionParameter: context.isVersioned,
                           isRangeRequest: fields.contains("range"),
                           purgedDuringExchange: wasPurgedDuringExchange(context)),
            response: .init(status: response.status, fields: responseFields,
                            currentAge: Int(min(stored.currentAge(now: Int64(responseTime)), Int64(Int32.max))),
                            setsCookie: stored.fields.contains("set-cookie")),
            body: .init(byteCount: response.body.count, format: image?.format.mimeType,
                        pixelWidth: image?.width, pixelHeight: image?.height),
            storability: storability)
        let decision = chain.decide(proposal)
        let storeKey = CacheKey.store(group: context.groupKey, secondary: stored.secondaryKey)
        // The policy cap counts age (`Age` and the apparent age from `Date`), like RFC 9111 freshness: already spent.
        let policyTTL = Int64(decision.ttl) + stored.currentAge(now: Int64(responseTime))
        var head = StoredHead(stored, contentType: image?.format.mimeType, width: image?.width, height: image?.height,
                              storage: decision.storage.rawValue, policyTTL: policyTTL)
        head.servedETag = servedETag
        let entry = StoredEntry(
            metadata: EntryMetadata(key: storeKey, tier: tier.name, route: context.route.name, partition: context.partition,
                                    head: head.encoded(), requestTime: requestTime, responseTime: responseTime,
                                    expiresAt: Self.expiresAt(responseTime: responseTime, ttl: Int64(decision.ttl), tier: tier)),
            body: response.body)
        let content = storeDecided(entry, response: stored, head: head, decision: decision,
                                   subject: context.subject(storeKey: storeKey), context: context,
                                   status: CacheStatus(forward: reason, forwardStatus: response.status))
        if content.storeKey != nil {
            // A new representation of the source: what was derived from the old one goes (docs/variants.md).
            dropVariants(ofSource: context.groupKey, in: context.runtime)
        }
        return Exchange(result: .content(content), shareable: content.storeKey != nil)
    }

    /// Steps 7–8 for a decided entry, original or variant: when the decision is `none` (or the tier has no store
    /// for its class), the audited `skip`; otherwise ``commit(_:into:storeKey:subject:decision:context:derivation:source:)``.
    /// - Parameters:
    ///   - status: the `Cache-Status` so far (forward reason and status); `ttl`, `stored` and `detail` are set here.
    /// - Returns: what to serve; its ``Exchange/Content/storeKey`` and `expiresAt` are set only when stored.
    func storeDecided(_ entry: StoredEntry, response: StoredResponse, head: StoredHead, decision: StorageDecision,
                      subject: ServiceAuditor.Subject, context: RequestContext, status base: CacheStatus,
                      derivation: ServiceAuditor.Derivation? = nil, source: (group: String, generation: Int)? = nil)
        -> Exchange.Content
    {
        var status = base
        guard decision.storage != .none, let store = context.runtime.store(for: decision.storage) else {
            try? auditor.record(.skip, subject, storage: .none, reason: decision.reason.rawValue, bytes: entry.body.count, ttl: nil)
            context.runtime.counters.bump(.skipped)
            status.detail = decision.reason.rawValue
            return Exchange.Content(response: response, head: head, body: entry.body, cacheStatus: status,
                                    storage: "none", reason: decision.reason.rawValue)
        }
        status.ttl = Int64(decision.ttl)
        if let failure = commit(entry, into: store, storeKey: entry.metadata.key, subject: subject, decision: decision,
                                context: context, derivation: derivation, source: source) {
            status.detail = failure
        } else {
            status.stored = true
            status.detail = decision.storage.rawValue
        }
        var content = Exchange.Content(response: response, head: head, body: entry.body, cacheStatus: status,
                                       storage: status.stored ? decision.storage.rawValue : "none",
                                       reason: decision.reason.rawValue)
        if status.stored {
            content.storeKey = entry.metadata.key
            content.expiresAt = entry.metadata.expiresAt
        }
        return content
    }

    /// Whether a purge started after `context` was admitted: its answer may belong to what the
    /// purge removed, so it is not stored (a 304 then updates nothing and the representation is
    /// fetched again, not stored either).
    func wasPurgedDuringExchange(_ context: RequestContext) -> Bool {
        purgeEpoch.load(ordering: .acquiring) != context.purgeEpoch
    }

    /// A 304 to a validation request (RFC 9111 §4.3.3–4.3.4): update the stored responses it selects
    /// (audited `update`). A 304 without validators answers the one stored response the conditional asked about, if
    /// it asked about exactly one (``HTTPCaching/ConditionalRequest/validated(candidates:by:)``).
    /// - Returns: the merged representation, or `nil` when the 304 selects none (or a purge began meanwhile): the
    ///   caller then fetches again without conditions.
    func notModified(_ context: RequestContext, candidates: [Candidate], response: OriginResponse, conditional: HTTPFields?,
                     requestTime: Double, responseTime: Double, reason: CacheStatus.Forward) -> Exchange? {
        let stored = candidates.map(\.response)
        let asked = conditional.flatMap { ConditionalRequest.validated(candidates: stored, by: $0) }
        let selected = wasPurgedDuringExchange(context) ? [] : NotModified.select(stored, for: response.fields, validating: asked)
        guard !selected.isEmpty else { return nil }
        let request = context.cacheRequest
        var served: (Candidate, StoredResponse, StoredHead, ttl: Int64, kept: Bool)?
        var updateFields = response.fields
        // A shared cache never merges an origin cookie into what every later client is served.
        if context.role == .shared, context.tier.setCookie == .refuse { updateFields.remove("Set-Cookie") }
        for index in selected {
            let candidate = candidates[index]
            var response = candidate.response
            // A targeted field the 304 brings counts (the stored head kept the list only if one was present).
            if response.targets != context.targets { response.targets = context.targets }
            let updated = NotModified.update(response, with: updateFields, requestTime: Int64(requestTime),
                                             responseTime: Int64(responseTime), role: context.role)
            let (fresh, ttl, kept) = storeUpdate(candidate, updated, context: context, requestTime: requestTime,
                                                 responseTime: responseTime)
            if served == nil || updated.matches(request: request.fields, digest: digest) {
                served = (fresh, updated, fresh.head, ttl, kept)
            }
        }
        let (candidate, updated, head, ttl, kept) = served!
        let status = CacheStatus(forward: reason, forwardStatus: 304, ttl: ttl)
        var content = Exchange.Content(response: updated, head: head, body: candidate.entry.body, cacheStatus: status,
                                       storage: head.storage, reason: "not-modified")
        if kept {
            content.storeKey = candidate.storeKey
            content.expiresAt = candidate.entry.metadata.expiresAt
        } else {
            content.storage = "none"
        }
        return Exchange(result: .content(content), shareable: true)
    }

    /// Writes `updated` (a 304's or a HEAD's update of `candidate`, RFC 9111 §3.2) over the stored entry,
    /// audited `update`: the stored body and what was learned about it stay, the head and times are new.
    /// - Returns: the updated candidate, its time to live (seconds, under the tier's cap) and whether it was kept.
    func storeUpdate(_ candidate: Candidate, _ updated: StoredResponse, context: RequestContext, requestTime: Double,
                     responseTime: Double) -> (candidate: Candidate, ttl: Int64, kept: Bool) {
        let cap = Int64(context.tier.ttlCap(versioned: context.isVersioned))
        // The cap counts the current age (`Age` and the apparent age from `Date`, RFC 9111 §4.2.3), as freshness does.
        let age = updated.currentAge(now: Int64(responseTime))
        let ttl = max(0, min(cap - age, updated.remainingFreshness(now: Int64(responseTime), role: context.role)))
        let policyTTL = ttl + age
        var head = StoredHead(updated, contentType: candidate.head.contentType, width: candidate.head.width,
                              height: candidate.head.height, storage: candidate.head.storage, policyTTL: policyTTL)
        head.storage = candidate.head.storage
        head.keepDerivation(of: candidate.head)
        var entry = candidate.entry
        entry.metadata.head = head.encoded()
        entry.metadata.requestTime = requestTime
        entry.metadata.responseTime = responseTime
        entry.metadata.expiresAt = Self.expiresAt(responseTime: responseTime, ttl: ttl, tier: context.tier)
        let storage = StorageClass(rawValue: candidate.head.storage) ?? .memory
        let kept = commitUpdate(entry, storeKey: candidate.storeKey, storage: storage, ttl: Int(ttl), context: context)
        return (Candidate(storeKey: candidate.storeKey, response: updated, head: head, entry: entry, policyTTL: policyTTL),
                ttl, kept)
    }

    /// When a stored response may be swept: its time to live, plus (on tiers that are not partitioned) the
    /// tier's `maxTTL` during which it can still be revalidated; partitioned tiers keep nothing stale.
    static func expiresAt(responseTime: Double, ttl: Int64, tier: Tier) -> Double {
        let keepFor = Double(ttl) + (tier.partition == .credential ? 0 : Double(tier.maxTTL))
        return responseTime + max(keepFor, 1)
    }
}
