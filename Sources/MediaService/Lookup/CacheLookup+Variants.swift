import HTTPCaching
import MediaCore
import MediaCrypto
import MediaPolicy
import MediaTransform

extension CacheLookup {
    /// Step 5a of the request flow: a derived image (docs/variants.md) the lookup found no usable stored variant
    /// for. The source is obtained through the normal path (routed, coalesced, validated, audited and stored under
    /// its tier) and the variant derived from it, once per variant at a time.
    /// - Parameter candidates: the variant's stored responses, none usable (stale, or a request's `no-cache`).
    func deriveVariant(_ context: RequestContext, stored: RequestContext, selection: VariantSelection,
                       candidates: [Candidate]) async -> ServiceResponse {
        let counters = context.runtime.counters
        // RFC 9211 `fwd`: why the source request went towards the origin; `derive` drops it when the source
        // came from storage (the variant was made here, nothing was forwarded).
        let forward: CacheStatus.Forward = context.cachePolicy == .reloadIgnoringLocalCacheData
            || context.cacheRequest.requiresValidation ? .request : candidates.isEmpty ? .uriMiss : .stale
        let operation: @Sendable () async -> Derivation = { [self] in
            await derive(context, stored: stored, selection: selection, reason: forward, stale: candidates)
        }
        let result: Derivation
        if context.coalesces {
            do {
                // A transform dropped because its client left is that request's own end: the requests that joined it
                // call again, and one of them derives the variant (SingleFlight, CancellationError).
                let outcome = try await derivations.run(stored.groupKey, isShareable: { $0.shareable }) { () async throws -> Derivation in
                    let derivation = await operation()
                    if derivation.clientGone { throw CancellationError() }
                    return derivation
                }
                result = outcome.value
                // A request that joined another's derivation of the same variant (mediactl_coalesced_total).
                if outcome.role == .joined { counters.bump(.coalesced) }
            } catch is CancellationError {
                return answer(Derivation.droppedResponse(context), selection)
            } catch {
                return answer(Responder.problem(502, code: "variant-failed", detail: "the derivation failed",
                                                outcome: context.outcome), selection)
            }
        } else {
            result = await operation()
        }
        switch result.result {
        case .content(let content):
            return answer(Responder.content(content.response, head: content.head, body: content.body, context: stored,
                                            now: Int64(now), cacheStatus: content.cacheStatus, storage: content.storage,
                                            reason: content.reason), selection, head: content.head)
        case .response(let response):
            return answer(response, selection)
        }
    }

    /// A stored variant served as a hit (`Cache-Status: mediactl; hit; ttl=N[; detail=…]`), with `Vary: Accept`
    /// when negotiated and its parameters in the outcome.
    func storedVariant(_ candidate: Candidate, stored: RequestContext, selection: VariantSelection, now time: Double,
                       detail: String? = nil) -> ServiceResponse {
        let status = CacheStatus(hit: true, ttl: CacheLookup.remaining(candidate, role: stored.role, freshness: stored.tier.freshness, now: time), detail: detail)
        return answer(Responder.stored(candidate, context: stored, now: Int64(time), status: status, storage: .hit),
                      selection, head: candidate.head)
    }

    /// The context a variant is looked up and stored under: the source's route, tier and partition, with the
    /// variant's primary key (``CacheKey/variantPrimary(source:keyText:)``).
    func variantContext(_ context: RequestContext, _ selection: VariantSelection) -> RequestContext {
        var stored = context
        stored.upstreamURL = CacheKey.variantPrimary(source: context.upstreamURL, keyText: selection.spec.keyText)
        return stored
    }

    /// `response` with `Vary: Accept` when `fmt=auto` chose the format (RFC 9110 §12.5.5) and `Vary` with the client
    /// hints the width was chosen from (RFC 8942 §3.2), and the variant's
    /// parameters and source in its outcome when `head` (the variant's) is given.
    func answer(_ response: ServiceResponse, _ selection: VariantSelection, head: StoredHead? = nil) -> ServiceResponse {
        var response = response
        if let head {
            response.outcome.variant = head.transform
            response.outcome.derivedFrom = head.derivedFrom
        }
        let varied = response.fields.listValues(for: .vary)
        let added = ((selection.negotiated ? ["Accept"] : []) + selection.hintFields).filter { name in
            !varied.contains(where: { HTTPFields.namesEqual(String($0), name) })
        }
        if !added.isEmpty { response.fields.append(.vary, added.joined(separator: ", ")) }
        return response
    }

    /// One derivation: the source through the normal path (routed, coalesced, validated, audited and stored under
    /// its tier), then ``ImageDerivation/derive(from:original:context:stored:selection:reason:stale:)`` on the
    /// representation it served.
    /// - Parameter stale: the variant's stored responses that were not usable (stale, or a request's `no-cache`).
    func derive(_ context: RequestContext, stored: RequestContext, selection: VariantSelection,
                reason: CacheStatus.Forward, stale: [Candidate] = []) async -> Derivation {
        var source = context
        source.variant = nil
        source.method = "GET"
        // The source is the cache's own request: the client's conditionals and ranges apply to the variant.
        source.clientFields.removeAll { name in RequestContext.clientConditionals.contains(HTTPFieldName(name)) }
        let served = await serve(source)
        guard served.response.status == 200, let representation = served.representation else {
            return Derivation(result: .response(served.response), shareable: false)
        }
        let reason: CacheStatus.Forward? = served.response.outcome.storage == .hit ? nil : reason
        return await derivation.derive(from: representation, original: served.response, context: source, stored: stored,
                                            selection: selection, reason: reason, staleSource: served.staleStatus,
                                            stale: stale)
    }
}
