import HTTPCaching
import MediaCore
@testable import MediaPolicy
import Synchronization
import Testing

/// A hook answering a fixed choice (or `nil`), counting its calls and remembering its offers.
final class FixedHook: StorageHook {
    let name: String
    let answer: StorageChoice?
    private let received = Mutex<[StorageChoice]>([])
    var offers: [StorageChoice] { received.withLock { $0 } }

    init(_ name: String, _ answer: StorageChoice?) {
        self.name = name
        self.answer = answer
    }

    func willStore(_ proposal: StorageProposal, proposed: StorageChoice) -> StorageChoice? {
        received.withLock { $0.append(proposed) }
        return answer
    }
}

/// A hook that keeps the default implementation.
struct PassThroughHook: StorageHook {}

@Suite struct StorageHookChainTests {
    static let publicTier = Tier(name: "public", storage: .disk, maxTTL: 31_536_000, maxObjectBytes: 1000, maxPixels: 10_000)
    static let avatarTier = Tier(name: "avatar", storage: .disk, maxTTL: 31_536_000, versionParameter: "v", unversionedMaxTTL: 300)
    static let privateTier = Tier(
        name: "private", storage: .encryptedDisk, cache: .private, credentials: .bearerRequired, partition: .credential, maxTTL: 600)

    func proposal(
        tier: Tier = publicTier, storability: StorageProposal.Storability = .storable(ttl: 3600),
        versioned: Bool = false, credential: Bool = false, bytes: Int = 500, format: String? = "image/jpeg", width: Int? = 10, height: Int? = 10
    ) -> StorageProposal {
        StorageProposal(
            tier: tier, route: Route(name: "r", mount: "/r/", origin: "http://o.example/", tier: tier.name),
            request: .init(hasCredential: credential, hasVersionParameter: versioned),
            response: .init(status: 200, fields: ["Cache-Control": "max-age=3600", "Content-Type": "image/jpeg"]),
            body: .init(byteCount: bytes, format: format, pixelWidth: width, pixelHeight: height),
            storability: storability)
    }

    func step(_ stage: String, _ storage: StorageClass, _ ttl: Int, _ reason: StorageReason) -> StorageDecision.Step {
        StorageDecision.Step(stage: stage, storage: storage, ttl: ttl, reason: reason)
    }

    @Test func storableResponseTakesTheTierStorage() {
        let decision = StorageHookChain().decide(proposal())
        #expect(decision == StorageDecision(storage: .disk, ttl: 3600, reason: .tierStorage, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .disk, 3600, .tierStorage),
        ]))
    }

    @Test func notStorableStopsAtTheFirstStep() {
        let hook = FixedHook("h", StorageChoice(storage: .memory, ttl: 1))
        let decision = StorageHookChain(hooks: [hook]).decide(proposal(storability: .notStorable(.varyStar)))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .varyStar, trail: [
            step("rfc9111", .none, 0, .varyStar),
        ]))
        #expect(decision.reason.rawValue == "vary-star")
        #expect(hook.offers.isEmpty)
    }

    @Test func tierNarrowsTheClassAndCapsTheTTL() {
        let decision = StorageHookChain().decide(proposal(tier: StorageHookChainTests.privateTier, credential: true))
        #expect(decision == StorageDecision(storage: .encryptedDisk, ttl: 600, reason: .tierStorage, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .encryptedDisk, 3600, .tierStorage),
            step("tier", .encryptedDisk, 600, .tierMaxTTL),
        ]))
    }

    @Test func partitionedTierWithoutCredentialStoresNothing() {
        let hook = FixedHook("h", nil)
        let decision = StorageHookChain(hooks: [hook]).decide(proposal(tier: StorageHookChainTests.privateTier, credential: false))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .noPartition, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .none, 0, .noPartition),
        ]))
        #expect(decision.reason.rawValue == "no-partition")
        #expect(hook.offers.isEmpty)
    }

    @Test func noStoreTierStoresNothing() {
        let hook = FixedHook("h", nil)
        let decision = StorageHookChain(hooks: [hook]).decide(proposal(tier: Tier(name: "no-store", storage: .none)))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .tierStorage, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .none, 0, .tierStorage),
        ]))
        #expect(hook.offers.isEmpty)
    }

    @Test func unversionedRequestsGetTheShorterCap() {
        let unversioned = StorageHookChain().decide(proposal(tier: StorageHookChainTests.avatarTier, versioned: false))
        #expect(unversioned == StorageDecision(storage: .disk, ttl: 300, reason: .tierStorage, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .disk, 3600, .tierStorage),
            step("tier", .disk, 300, .unversionedMaxTTL),
        ]))
        let versioned = StorageHookChain().decide(proposal(tier: StorageHookChainTests.avatarTier, versioned: true))
        #expect(versioned.ttl == 3600)
        #expect(versioned.trail.count == 2)
    }

    @Test func rfcTTLIsClampedToDeltaSecondsRange() {
        let tier = Tier(name: "t", storage: .memory, maxTTL: 2_147_483_648)
        #expect(StorageHookChain().decide(proposal(tier: tier, storability: .storable(ttl: Int.max))).ttl == 2_147_483_648)
        #expect(StorageHookChain().decide(proposal(tier: tier, storability: .storable(ttl: -5))).ttl == 0)
    }

    @Test func overSizeLimit() {
        let decision = StorageHookChain().decide(proposal(bytes: 1001))
        #expect(decision == StorageDecision(storage: .none, ttl: 0, reason: .overSizeLimit, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .disk, 3600, .tierStorage),
            step("limits", .none, 0, .overSizeLimit),
        ]))
        #expect(StorageHookChain().decide(proposal(bytes: 1000)).storage == .disk)
    }

    @Test func overPixelLimit() {
        let decision = StorageHookChain().decide(proposal(width: 101, height: 100))
        #expect(decision.storage == .none)
        #expect(decision.reason == .overPixelLimit)
        #expect(decision.trail.last == step("limits", .none, 0, .overPixelLimit))
        #expect(StorageHookChain().decide(proposal(width: 100, height: 100)).storage == .disk)
        #expect(StorageHookChain().decide(proposal(width: 60_000, height: Int.max)).reason == .overPixelLimit)
        #expect(StorageHookChain().decide(proposal(width: nil, height: 100)).storage == .disk)
    }

    @Test func sizeIsCheckedBeforePixels() {
        #expect(StorageHookChain().decide(proposal(bytes: 5000, width: 1000, height: 1000)).reason == .overSizeLimit)
    }

    @Test func notAnImage() {
        #expect(StorageHookChain().decide(proposal(format: nil)).reason == .notAnImage)
        #expect(StorageHookChain().decide(proposal(format: "image/svg+xml")).reason == .notAnImage)
        let pngOnly = Tier(name: "t", storage: .disk, contentTypes: ["image/png"])
        #expect(StorageHookChain().decide(proposal(tier: pngOnly, format: "image/jpeg")).reason == .notAnImage)
        let anything = Tier(name: "t", storage: .disk, contentTypes: ["*/*"])
        #expect(StorageHookChain().decide(proposal(tier: anything, format: nil)).storage == .disk)
    }

    @Test func hookNarrowsToMemory() {
        let hook = FixedHook("ram", StorageChoice(storage: .memory, ttl: 3600))
        let decision = StorageHookChain(hooks: [hook]).decide(proposal())
        #expect(decision == StorageDecision(storage: .memory, ttl: 3600, reason: .hookNarrowed(.memory), trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .disk, 3600, .tierStorage),
            step("hook:ram", .memory, 3600, .hookNarrowed(.memory)),
        ]))
        #expect(decision.reason.rawValue == "hook-narrowed:memory")
        #expect(hook.offers == [StorageChoice(storage: .disk, ttl: 3600)])
    }

    @Test func hookVetoIsNarrowingToNone() {
        let veto = FixedHook("veto", nil)
        let after = FixedHook("after", StorageChoice(storage: .disk, ttl: 1))
        let decision = StorageHookChain(hooks: [veto, after]).decide(proposal())
        #expect(decision.storage == .none)
        #expect(decision.ttl == 0)
        #expect(decision.reason.rawValue == "hook-narrowed:none")
        #expect(decision.trail.last == step("hook:veto", .none, 0, .hookNarrowed(.none)))
        #expect(after.offers.isEmpty)
    }

    @Test func wideningIsClampedAndRecorded() {
        let tier = Tier(name: "t", storage: .memory, maxTTL: 60)
        let widen = FixedHook("widen", StorageChoice(storage: .disk, ttl: 99_999))
        let decision = StorageHookChain(hooks: [widen]).decide(proposal(tier: tier))
        #expect(decision == StorageDecision(storage: .memory, ttl: 60, reason: .tierStorage, trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .memory, 3600, .tierStorage),
            step("tier", .memory, 60, .tierMaxTTL),
            step("hook:widen", .memory, 60, .hookWideningClamped),
        ]))
        #expect(StorageReason.hookWideningClamped.rawValue == "hook-widening-clamped")
    }

    @Test func wideClassButShorterTTLKeepsTheShorterTTL() {
        let tier = Tier(name: "t", storage: .memory)
        let hook = FixedHook("mixed", StorageChoice(storage: .disk, ttl: 10))
        let decision = StorageHookChain(hooks: [hook]).decide(proposal(tier: tier))
        #expect(decision.storage == .memory)
        #expect(decision.ttl == 10)
        #expect(decision.reason == .tierStorage)
        #expect(Array(decision.trail.suffix(2)) == [
            step("hook:mixed", .memory, 3600, .hookWideningClamped),
            step("hook:mixed", .memory, 10, .hookTTLNarrowed),
        ])
    }

    @Test func hooksRunInOrderEachSeeingTheNarrowedOffer() {
        let first = FixedHook("first", StorageChoice(storage: .encryptedDisk, ttl: 1000))
        let second = FixedHook("second", StorageChoice(storage: .disk, ttl: 1000))
        let third = FixedHook("third", StorageChoice(storage: .memory, ttl: 100))
        let decision = StorageHookChain(hooks: [first, second, third, PassThroughHook()]).decide(proposal())
        #expect(first.offers == [StorageChoice(storage: .disk, ttl: 3600)])
        #expect(second.offers == [StorageChoice(storage: .encryptedDisk, ttl: 1000)])
        #expect(third.offers == [StorageChoice(storage: .encryptedDisk, ttl: 1000)])
        #expect(decision == StorageDecision(storage: .memory, ttl: 100, reason: .hookNarrowed(.memory), trail: [
            step("rfc9111", .disk, 3600, .rfc9111Storable),
            step("tier", .disk, 3600, .tierStorage),
            step("hook:first", .encryptedDisk, 1000, .hookNarrowed(.encryptedDisk)),
            step("hook:second", .encryptedDisk, 1000, .hookWideningClamped),
            step("hook:third", .memory, 100, .hookNarrowed(.memory)),
        ]))
    }

    @Test func defaultHookKeepsTheOfferAndIsNamedByType() {
        let decision = StorageHookChain(hooks: [PassThroughHook()]).decide(proposal())
        #expect(decision.trail.count == 2)
        #expect(PassThroughHook().name == "PassThroughHook")
        let offer = StorageChoice(storage: .memory, ttl: 5)
        #expect(PassThroughHook().willStore(proposal(), proposed: offer) == offer)
    }

    @Test func negativeHookTTLBecomesZero() {
        let hook = FixedHook("neg", StorageChoice(storage: .disk, ttl: -10))
        let decision = StorageHookChain(hooks: [hook]).decide(proposal())
        #expect(decision.ttl == 0)
        #expect(decision.trail.last == step("hook:neg", .disk, 0, .hookTTLNarrowed))
    }

    @Test func proposalFacts() {
        let body = StorageProposal.Body(byteCount: 1, pixelWidth: 3, pixelHeight: 4)
        #expect(body.pixelCount == 12)
        #expect(StorageProposal.Body(byteCount: 1, pixelWidth: Int.max, pixelHeight: 2).pixelCount == Int.max)
        #expect(StorageProposal.Body(byteCount: 1).pixelCount == nil)
        #expect(proposal().response.fields["cache-control"] == "max-age=3600")
        #expect("\(step("tier", .disk, 300, .unversionedMaxTTL))" == "tier: disk ttl=300 unversioned-max-ttl")
    }

    @Test func reasonCodesAreTheContractSpellings() {
        let reasons: [StorageReason] = [
            .rfc9111Storable, .responseNoStore, .requestNoStore, .privateInSharedCache, .authorizationInSharedCache,
            .varyStar, .statusNotStorable, .tierStorage, .tierMaxTTL, .unversionedMaxTTL, .overSizeLimit,
            .overPixelLimit, .notAnImage, .hookWideningClamped, .hookTTLNarrowed, .hookNarrowed(.encryptedDisk),
        ]
        #expect(reasons.map(\.rawValue) == [
            "rfc9111-storable", "response-no-store", "request-no-store", "private-in-shared-cache",
            "authorization-in-shared-cache", "vary-star", "status-not-storable", "tier-storage", "tier-max-ttl",
            "unversioned-max-ttl", "over-size-limit", "over-pixel-limit", "not-an-image", "hook-widening-clamped",
            "hook-ttl-narrowed", "hook-narrowed:encrypted-disk",
        ])
        #expect(StorageReason("custom") == "custom")
    }
}
