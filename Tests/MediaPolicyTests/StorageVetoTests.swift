import HTTPCaching
import MediaCore
@testable import MediaPolicy
import Testing

/// The vetoes the chain owns beside the tier and the hooks: a cookie in a shared cache, an answer to a range
/// request, a derived image's source class, and a purge during the exchange. Each is one step of the trail.
@Suite struct StorageVetoTests {
    static let shared = Tier(name: "public", storage: .disk, maxTTL: 3600)
    static let storesCookies = Tier(name: "generic", storage: .disk, maxTTL: 3600, setCookie: .store)
    static let privateCache = Tier(name: "mine", storage: .memory, cache: .private, maxTTL: 3600)

    func proposal(tier: Tier = shared, status: HTTPStatus = 200, storability: StorageProposal.Storability = .storable(ttl: 60),
                  range: Bool = false, purged: Bool = false, cookie: Bool = false,
                  source: StorageClass? = nil) -> StorageProposal {
        StorageProposal(
            tier: tier, route: Route(name: "r", mount: "/r/", origin: "http://o.example/", tier: tier.name),
            request: .init(isRangeRequest: range, purgedDuringExchange: purged),
            response: .init(status: status, fields: ["Cache-Control": "max-age=60"], setsCookie: cookie),
            body: .init(byteCount: 10, format: "image/png", pixelWidth: 1, pixelHeight: 1),
            storability: storability, sourceStorage: source)
    }

    func step(_ stage: String, _ storage: StorageClass, _ ttl: Int, _ reason: StorageReason) -> StorageDecision.Step {
        StorageDecision.Step(stage: stage, storage: storage, ttl: ttl, reason: reason)
    }

    @Test func aCookieInASharedCacheIsNeverStored() {
        let decision = StorageHookChain().decide(proposal(cookie: true))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .setCookieInSharedCache,
                                            trail: [step("rfc9111", .none, 0, .setCookieInSharedCache)]))
        #expect(decision.reason.rawValue == "set-cookie-in-shared-cache")
        // It names the decision even when RFC 9111 refused storage for another reason.
        #expect(StorageHookChain().decide(proposal(storability: .notStorable(.responseNoStore), cookie: true)).reason
            == .setCookieInSharedCache)
    }

    @Test func aCookieIsStoredWhereTheTierSaysSoOrInAPrivateCache() {
        #expect(StorageHookChain().decide(proposal(tier: Self.storesCookies, cookie: true)).storage == .disk)
        #expect(StorageHookChain().decide(proposal(tier: Self.privateCache, cookie: true)).storage == .memory)
    }

    @Test func anAnswerToARangeRequestOtherThanTheWholeIsNotStored() {
        let decision = StorageHookChain().decide(proposal(status: 206, range: true))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .answerToRangeRequest,
                                            trail: [step("rfc9111", .none, 0, .answerToRangeRequest)]))
        #expect(decision.reason.rawValue == "answer-to-range-request")
        #expect(StorageHookChain().decide(proposal(status: 200, range: true)).storage == .disk)
        #expect(StorageHookChain().decide(proposal(status: 206, storability: .notStorable(.statusNotStorable), range: true))
            .reason == .statusNotStorable)
    }

    @Test func aDerivedImageIsNeverWiderThanItsSource() {
        let decision = StorageHookChain().decide(proposal(source: .memory))
        #expect(decision == StorageDecision(storage: .memory, ttl: 60, reason: .sourceStorage(.memory), trail: [
            step("rfc9111", .disk, 60, .rfc9111Storable),
            step("tier", .disk, 60, .tierStorage),
            step("source", .memory, 60, .sourceStorage(.memory)),
        ]))
        #expect(StorageHookChain().decide(proposal(source: StorageClass.none)).reason.rawValue == "source-storage:none")
        #expect(StorageHookChain().decide(proposal(source: StorageClass.none)).ttl == 0)
        #expect(StorageHookChain().decide(proposal(source: .disk)).reason == .tierStorage)
    }

    @Test func aPurgeDuringTheExchangeStoresNothingAfterTheHooks() {
        let hook = FixedHook("h", StorageChoice(storage: .memory, ttl: 30))
        let decision = StorageHookChain(hooks: [hook]).decide(proposal(purged: true))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .purgedDuringFetch, trail: [
            step("rfc9111", .disk, 60, .rfc9111Storable),
            step("tier", .disk, 60, .tierStorage),
            step("hook:h", .memory, 30, .hookNarrowed(.memory)),
            step("purge", .none, 0, .purgedDuringFetch),
        ]))
        #expect(decision.reason.rawValue == "purged-during-fetch")
        // A source that was not stored names the decision first.
        #expect(StorageHookChain().decide(proposal(purged: true, source: StorageClass.none)).reason.rawValue
            == "source-storage:none")
    }
}
