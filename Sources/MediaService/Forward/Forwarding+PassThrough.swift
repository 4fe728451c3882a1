import HTTPCaching
import MediaCore
import MediaPolicy
import MediaStorage

extension Forwarding {
    /// Methods other than GET and HEAD on a `"methods": "all"` route (conformance mode): forwarded once
    /// (never retried, never coalesced) with the request body, answered with the origin's status, fields
    /// and body, and never stored. A non-error answer to an unsafe method invalidates the target URI and
    /// same-origin `Location` / `Content-Location` (RFC 9111 §4.4), audited `invalidate`.
    func passThrough(_ context: RequestContext, body: [UInt8]) async -> ServiceResponse {
        let tier = context.tier
        let response: OriginResponse
        do {
            response = try await OriginContact.measure(\.status) {
                try await fetcher.fetch(OriginRequest(
                    method: context.method, url: context.upstreamURL, fields: originFields(context, conditional: nil),
                    timeout: tier.originTimeout, maxBodyBytes: tier.maxObjectBytes, body: body, allowsRetry: false),
                    interim: context.interim)
            }
        } catch let error as OriginError {
            return Responder.originFailureProblem(error, tier: tier, outcome: context.outcome)
        } catch {
            return Responder.problem(502, code: "origin-error", detail: "the origin could not be reached",
                                     outcome: context.outcome)
        }
        let invalidated = Invalidation.invalidatedURIs(method: context.method, status: response.status,
                                                       target: context.upstreamURL, responseFields: response.fields)
        for uri in invalidated { invalidate(primary: uri) }
        var fields = StoredFields.filter(response.fields, role: .private)
        if let tagHeader = context.tier.tagHeader { fields.remove(HTTPFieldName(tagHeader)) }
        fields.remove(.contentLength)
        if response.status != 304 && response.status != 204 { fields.set(.contentLength, String(response.body.count)) }
        let status = CacheStatus(forward: .method, forwardStatus: response.status,
                                 detail: invalidated.isEmpty ? nil : "invalidated")
        fields.set(.cacheStatus, status.description)
        var outcome = context.outcome
        outcome.cacheStatus = status.description
        outcome.storage = .notStored
        return ServiceResponse(status: response.status, fields: fields, body: response.body, outcome: outcome)
    }

    /// Removes every stored response of `primary` (any partition, any variant) from every tier,
    /// audited `invalidate` with reason `unsafe-method`.
    func invalidate(primary: String) {
        commit.gate.exclusive { invalidateUnderGate(primary: primary) }
        commit.auditor.flush()
    }

    /// Each removal and its record, with no store of the same key between them (``StoreGate``).
    private func invalidateUnderGate(primary: String) {
        for runtime in routes.snapshot.runtimes.values {
            for storeKey in runtime.storeKeys(primary: runtime.primaryKey(url: primary)) {
                guard let metadata = runtime.remove(storeKey) else { continue }
                commit.auditor.recordRemoval(.invalidate, metadata, storeKey: storeKey, url: metadata.partition == nil ? primary : nil,
                                      reason: "unsafe-method")
                // Its variants go with it (they were derived from what the unsafe request may have changed).
                commit.dropVariantsUnderGate(ofSource: CacheKey.group(ofStoreKey: storeKey), in: runtime, reason: "unsafe-method")
            }
        }
    }
}
