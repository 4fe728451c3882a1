import HTTPCaching
import MediaCore
import MediaPolicy
import MediaStorage
import Synchronization

extension Forwarding {
    /// A 304 to a validation request (RFC 9111 §4.3.3–4.3.4): update the stored responses it selects
    /// (audited `update`). A 304 without validators answers the one stored response the conditional asked about, if
    /// it asked about exactly one (``HTTPCaching/ConditionalRequest/validated(candidates:by:)``).
    /// - Returns: the merged representation, or `nil` when the 304 selects none (or a purge began meanwhile): the
    ///   caller then fetches again without conditions.
    func notModified(_ context: RequestContext, candidates: [Candidate], response: OriginResponse, conditional: HTTPFields?,
                     requestTime: Double, responseTime: Double, reason: CacheStatus.Forward) -> Exchange? {
        let stored = candidates.map(\.response)
        let asked = conditional.flatMap { ConditionalRequest.validated(candidates: stored, by: $0) }
        let selected = commit.wasPurgedDuringExchange(context) ? [] : NotModified.select(stored, for: response.fields, validating: asked)
        guard !selected.isEmpty else { return nil }
        let request = context.cacheRequest
        var served: (Candidate, StoredResponse, StoredHead, ttl: Int64, kept: Bool)?
        var updateFields = response.fields
        // A shared cache never merges an origin cookie into what every later client is served.
        if context.role == .shared, context.tier.setCookie == .refuse { updateFields.remove(.setCookie) }
        // The stored tags stay those of the 200 (a 304 is not a new representation); its tag field is not kept either.
        if let tagHeader = context.tier.tagHeader { updateFields.remove(HTTPFieldName(tagHeader)) }
        for index in selected {
            let candidate = candidates[index]
            var response = candidate.response
            // A targeted field the 304 brings counts (the stored head kept the list only if one was present).
            if response.targets != context.targets { response.targets = context.targets }
            let updated = NotModified.update(response, with: updateFields, requestTime: Int64(requestTime),
                                             responseTime: Int64(responseTime), role: context.role)
            let (fresh, ttl, kept) = commit.storeUpdate(candidate, updated, context: context, requestTime: requestTime,
                                                 responseTime: responseTime)
            if served == nil || updated.matches(request: request.fields, digest: commit.digest) {
                served = (fresh, updated, fresh.head, ttl, kept)
            }
        }
        let (candidate, updated, head, ttl, kept) = served!
        let status = CacheStatus(forward: reason, forwardStatus: 304, ttl: ttl)
        var content = Exchange.Content(response: updated, head: head, body: candidate.entry.body, cacheStatus: status,
                                       storage: head.provenance, reason: "not-modified")
        if kept {
            content.storeKey = candidate.storeKey
            content.expiresAt = candidate.entry.metadata.expiresAt
        } else {
            content.storage = .notStored
        }
        return Exchange(result: .content(content), shareable: true)
    }
}
