import HTTPCaching
import MediaCore
import MediaPolicy

/// Step 4 of the request flow, after ``CacheLookup`` chose to ask the origin: the exchange (``OriginExchange``),
/// coalesced per flight (``SingleFlight``), and what its answer becomes: a 304 merged into the stored responses
/// (``notModified(_:candidates:response:conditional:requestTime:responseTime:reason:)``), a refusal, or a response
/// stored by ``StoreCommit``; a stale response after an origin failure where RFC 5861 allows. A generic tier's
/// `HEAD` is written through (``headThrough(_:decision:candidates:conditional:reason:)``), and other methods pass
/// through (``passThrough(_:body:)``).
///
/// A value over the service's shared parts: the origin transport, the flights, the commit stage and the policy
/// snapshot in force (``MediaService/forwarding``).
struct Forwarding: Sendable {
    let fetcher: any OriginFetching
    let flights: SingleFlight<String, Exchange>
    let commit: StoreCommit
    /// The policy snapshot in force (the runtimes an invalidation reaches).
    let routes: HitRouteCache
    let clock: @Sendable () -> Double
    /// `mediactl_origin_fetch_duration_seconds`, by route.
    let fetchTimes: OriginFetchTimes

    /// Seconds since the epoch, from the configured clock.
    var now: Double { clock() }

    /// Step 4: contacts the origin, coalesced per (group key, conditional, content negotiation),
    /// and turns the exchange into this caller's response (serving stale on an origin failure when
    /// RFC 9111 and the tier allow it).
    func forward(_ context: RequestContext, decision: inout ServingDecision, candidates: [Candidate],
                 conditional: HTTPFields?, reason: CacheStatus.Forward) async -> Served {
        if context.method == .head, context.isGeneric, context.variant == nil {
            return Served(await headThrough(context, decision: &decision, candidates: candidates, conditional: conditional,
                                            reason: reason))
        }
        // Whether an origin error may be answered with a stored response (stale-if-error): then a generic
        // tier's 5xx is not passed through, and not stored over the response that will be served.
        let staleOnError = context.isGeneric && { var probe = decision
            if case .serveStale = probe.originFailed(status: 500, now: Int64(now)) { return true }
            return false }()
        let operation: @Sendable () async -> Exchange = { [self] in
            await exchange(context, candidates: candidates, conditional: conditional, reason: reason,
                           staleOnError: staleOnError)
        }
        var joined = false
        var result: Exchange
        if !context.coalesces {
            result = await operation()
        } else {
            do {
                let outcome = try await flights.run(flightKey(context, conditional: conditional),
                                                    isShareable: { $0.shareable }, operation: operation)
                result = outcome.value
                joined = outcome.role == .joined
                // RFC 9111 §4.1: the leader's answer may vary on a field outside the flight key that
                // this request does not share; then it is not this request's answer.
                if joined, case .content(let content) = result.result,
                   !content.response.matches(request: context.cacheRequest.fields, digest: commit.digest) {
                    result = await operation()
                    joined = false
                }
            } catch {
                return Served(Responder.problem(502, code: "origin-error", detail: "the origin exchange failed",
                                                outcome: context.outcome))
            }
        }
        if joined { context.runtime.counters.bump(.coalesced) }
        let time = Int64(now)
        switch result.result {
        case .content(let content):
            var status = content.cacheStatus
            if joined { status.collapsed = true }
            return Served(.exchanged(content), context: context, now: time, status: status,
                          storage: joined ? .collapsed : content.storage, reason: content.reason)
        case .refused(let response):
            return Served(response)
        case .originFailed(let status, let response):
            return staleOrFailure(context, decision: &decision, candidates: candidates, status: status, failure: response)
        }
    }

    /// After an origin failure (`status` `nil`: unreachable; else its 5xx): a stored response served stale when
    /// RFC 5861 `stale-if-error` (or the tier's `serveStaleOnError`) allows, else `failure`.
    func staleOrFailure(_ context: RequestContext, decision: inout ServingDecision, candidates: [Candidate],
                        status: HTTPStatus?, failure: ServiceResponse) -> Served {
        let time = Int64(now)
        guard case .serveStale(let index, _, _) = decision.originFailed(status: status, now: time) else {
            return Served(failure)
        }
        let candidate = candidates[index]
        context.runtime.counters.bump(.hits)
        return Served(.stored(candidate), context: context, now: time,
                      status: CacheStatus(forward: .stale, forwardStatus: status ?? failure.status,
                                          ttl: CacheLookup.remaining(candidate, role: context.role, freshness: context.tier.freshness, now: Double(time)),
                                          detail: "stale-if-error"),
                      storage: .hit)
    }

    /// The fields sent to the origin: the request's, with the cache's validators in place of the client's
    /// conditionals when `conditional` is set (conformance mode forwards the client's only when nothing is stored).
    func originFields(_ context: RequestContext, conditional: HTTPFields?) -> HTTPFields {
        var fields = context.originFields
        if let conditional {
            for name in RequestContext.clientConditionals { fields.remove(name) }
            for field in conditional { fields.set(field.fieldName, field.value) }
        }
        // One id follows the request to the origin (docs/operations.md, "Request ids").
        if let requestID = context.requestID { fields.set(RequestID.fieldName, requestID) }
        return fields
    }

    /// Who may share one origin exchange: the group (URL + partition), the validators sent, and the
    /// request fields images are commonly negotiated on.
    func flightKey(_ context: RequestContext, conditional: HTTPFields?) -> String {
        let fields = context.originFields
        let accept = fields[.accept] ?? "", encoding = fields[.acceptEncoding] ?? ""
        let language = fields[.acceptLanguage] ?? ""
        let validators = conditional?.description ?? ""
        // One byte buffer, one String at the end (String `+=` re-checks capacity and ASCII-ness per append).
        var key: [UInt8] = []
        key.reserveCapacity(context.groupKey.utf8.count + accept.utf8.count + encoding.utf8.count
                            + language.utf8.count + validators.utf8.count + 48)
        key.appendUTF8(context.groupKey)
        key.append(contentsOf: "\naccept:".utf8)
        key.appendUTF8(accept)
        key.append(contentsOf: "\naccept-encoding:".utf8)
        key.appendUTF8(encoding)
        key.append(contentsOf: "\naccept-language:".utf8)
        key.appendUTF8(language)
        key.append(0x0A)
        key.appendUTF8(validators)
        return String(decoding: key, as: UTF8.self)
    }

    /// One exchange with the origin (``OriginExchange``), then what its answer gets: a 304 merged into the stored
    /// responses, a refusal audited, a response decided on, stored and audited (``commit.decideAndStore(_:response:fields:image:requestTime:responseTime:reason:servedETag:)``).
    ///
    /// A 5xx answer is an origin failure on image tiers (a `502` problem, or a stale response where
    /// `stale-if-error` allows). On a generic tier it is the origin's answer, passed through with its own
    /// status, fields and body and stored when RFC 9111 allows (explicit freshness, §3), unless
    /// `staleOnError` says a stored response will be served instead (RFC 5861 §4).
    func exchange(_ context: RequestContext, candidates: [Candidate], conditional: HTTPFields?,
                  reason: CacheStatus.Forward, staleOnError: Bool = false) async -> Exchange {
        let fields = originFields(context, conditional: conditional)
        let (answer, requestTime, responseTime) = await OriginExchange(fetcher: fetcher, clock: clock, fetchTimes: fetchTimes)
            .run(context, fields: fields, conditional: conditional, staleOnError: staleOnError)
        switch answer {
        case .failed(let status, let problem):
            return Exchange(result: .originFailed(status: status, response: problem), shareable: true)
        case .refused(let refusal):
            let problem = refusalProblem(context, status: refusal.status, code: refusal.code, detail: refusal.detail)
            return commit.storeNegative(context, key: Tier.refusedErrorKey, problem: problem, origin: refusal.fields,
                                             originStatus: refusal.originStatus, fields: fields, requestTime: requestTime, responseTime: responseTime,
                                             reason: reason)
                ?? refuse(context, status: refusal.status, code: refusal.code, detail: refusal.detail)
        case .statusRefused(let status, let originFields):
            if let key = Tier.errorTTLKey(status: status),
               let stored = commit.storeNegative(context, key: key, problem: originStatusProblem(context, status: status),
                                                      origin: originFields, originStatus: status, fields: fields,
                                                      requestTime: requestTime,
                                                      responseTime: responseTime, reason: reason) {
                return stored
            }
            return refuseOriginStatus(context, status: status)
        case .notModified(let response):
            if let merged = notModified(context, candidates: candidates, response: response, conditional: conditional,
                                        requestTime: requestTime, responseTime: responseTime, reason: reason) {
                return merged
            }
            // The 304 selects no stored response: the representation is fetched again, without conditions.
            return await exchange(context, candidates: candidates, conditional: nil, reason: reason)
        case .fetched(let fetched):
            var exchange = commit.decideAndStore(context, response: fetched.served, fields: fields, image: fetched.image,
                                          requestTime: requestTime, responseTime: responseTime, reason: reason,
                                          servedETag: fetched.servedETag)
            if context.isGeneric, (500...599).contains(fetched.received.status), !exchange.shareable,
               Self.mayShareUnstored(fetched.received.fields) {
                // A passed-through server error that was not stored still answers every waiter of the flight: a
                // failing origin sees one request per burst, not one per client (never an answer that sets a cookie
                // or is `private` / `no-store`: that one belongs to its requester).
                exchange.shareable = true
            }
            return exchange
        }
    }
}