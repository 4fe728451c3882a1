import HTTPCaching
import MediaCore
import MediaPolicy

extension Forwarding {
    /// A client `HEAD` that must reach the origin on a generic tier (conformance mode): written through as
    /// `HEAD` (with the cache's validators when it holds a stored response), never coalesced, never stored as a
    /// response of its own (it has no body).
    ///
    /// - A `304` freshens the stored responses it selects (RFC 9111 §4.3.4), as for a GET.
    /// - A `200` freshens each stored GET response that could have been chosen for the request (§4.3.5):
    ///   updated as for a 304 when `ETag`, `Last-Modified` and `Content-Length` agree
    ///   (``HTTPCaching/NotModified/freshenWithHEAD(_:headStatus:headFields:requestTime:responseTime:role:)``),
    ///   then answered from it; when it describes another representation (a different or new validator), the
    ///   stored GET responses of the URI are invalidated (audited `invalidate`) and the origin's answer passes
    ///   through. A HEAD answer the cache could not store (`no-store`, `private` in a shared tier, §3.5) updates nothing.
    /// - Any other answer passes through unstored; an unreachable origin or a 5xx may be met with a stale
    ///   response (`stale-if-error`).
    ///
    /// Image tiers validate with a `GET` instead, which fills the cache with a validated image.
    func headThrough(_ context: RequestContext, decision: inout ServingDecision, candidates: [Candidate],
                     conditional: HTTPFields?, reason: CacheStatus.Forward) async -> ServiceResponse {
        let fields = originFields(context, conditional: conditional)
        let tier = context.tier
        let requestTime = now
        let response: OriginResponse
        do {
            response = try await fetcher.fetch(OriginRequest(
                method: "HEAD", url: context.upstreamURL, fields: fields, timeout: tier.originTimeout,
                maxBodyBytes: tier.maxObjectBytes, allowsRetry: false, decodesContentCoding: false),
                interim: context.interim)
        } catch {
            let problem = (error as? OriginError).map { Responder.originFailureProblem($0, tier: tier, outcome: context.outcome) }
                ?? Responder.problem(502, code: "origin-error", detail: "the origin could not be reached", outcome: context.outcome)
            return staleOrFailure(context, decision: &decision, candidates: candidates, status: nil, failure: problem).response
        }
        let responseTime = now
        let time = Int64(responseTime)
        if response.status == 304, conditional != nil {
            let exchange: Exchange
            if let merged = notModified(context, candidates: candidates, response: response, conditional: conditional,
                                        requestTime: requestTime, responseTime: responseTime, reason: reason) {
                exchange = merged
            } else {
                exchange = await self.exchange(context, candidates: candidates, conditional: nil, reason: reason)
            }
            switch exchange.result {
            case .content(let content):
                return Responder.content(content.response, head: content.head, body: content.body, context: context,
                                         now: time, cacheStatus: content.cacheStatus, storage: content.storage,
                                         reason: content.reason)
            case .refused(let refusal), .originFailed(_, let refusal):
                return refusal
            }
        }
        if (500...599).contains(response.status) {
            let passed = passedThroughHEAD(context, response, reason: reason)
            return staleOrFailure(context, decision: &decision, candidates: candidates, status: response.status,
                                  failure: passed).response
        }
        // Only a HEAD answer this cache could store (RFC 9111 §3, §3.5: not `no-store`, not `private` in a shared
        // cache, not an authenticated answer without `public`/`s-maxage`/`must-revalidate`) may update what it stores.
        let storable = Storability.evaluate(method: "GET", requestFields: fields, status: response.status,
                                            responseFields: response.fields, role: context.role,
                                            targets: context.targets).isStorable
        if response.status == 200, storable, !commit.wasPurgedDuringExchange(context) {
            var served: (Candidate, ttl: Int64)?
            var invalidates = false
            for candidate in candidates where candidate.response.matches(request: context.cacheRequest.fields, digest: commit.digest) {
                var stored = candidate.response
                if stored.targets != context.targets { stored.targets = context.targets }
                guard case .updated(let updated) = NotModified.freshenWithHEAD(
                    stored, headStatus: 200, headFields: headUpdateFields(context, response.fields),
                    requestTime: Int64(requestTime), responseTime: Int64(responseTime), role: context.role)
                else {
                    // Another representation: §4.3.5 "update or invalidate" — the stored GET response goes.
                    invalidates = true
                    continue
                }
                let (fresh, ttl, _) = commit.storeUpdate(candidate, updated, context: context, requestTime: requestTime,
                                                  responseTime: responseTime)
                if served == nil { served = (fresh, ttl) }
            }
            if invalidates, served == nil { invalidate(primary: context.upstreamURL) }
            if let (fresh, ttl) = served {
                return Responder.stored(fresh, context: context, now: time,
                                        status: CacheStatus(forward: reason, forwardStatus: 200, ttl: ttl, detail: "head-update"),
                                        storage: fresh.head.provenance)
            }
        }
        return passedThroughHEAD(context, response, reason: reason)
    }

    /// The fields a HEAD's 200 may merge into a stored response: a shared tier that refuses cookies never merges one.
    private func headUpdateFields(_ context: RequestContext, _ fields: HTTPFields) -> HTTPFields {
        var update = fields
        if context.role == .shared, context.tier.setCookie == .refuse { update.remove(.setCookie) }
        if let tagHeader = context.tier.tagHeader { update.remove(HTTPFieldName(tagHeader)) }
        return update
    }

    /// The origin's answer to a written-through HEAD, as sent (hop-by-hop fields removed; its `Content-Length`
    /// describes the GET body and is kept), with `Cache-Status`.
    private func passedThroughHEAD(_ context: RequestContext, _ response: OriginResponse, reason: CacheStatus.Forward)
        -> ServiceResponse {
        var fields = StoredFields.filter(response.fields, role: .private)
        if let tagHeader = context.tier.tagHeader { fields.remove(HTTPFieldName(tagHeader)) }
        let status = CacheStatus(forward: reason, forwardStatus: response.status)
        fields.set(.cacheStatus, status.description)
        var outcome = context.outcome
        outcome.cacheStatus = status.description
        outcome.storage = .notStored
        return ServiceResponse(status: response.status, fields: fields, body: [], outcome: outcome)
    }
}
