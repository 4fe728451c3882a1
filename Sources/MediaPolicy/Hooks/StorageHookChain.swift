import MediaCore

/// The storage decision chain: RFC 9111 storability → tier policy → limits → user hooks.
///
/// Each step may only narrow the class (`disk` > `encrypted-disk` > `memory` > `none`) and shorten
/// the time to live; once the class is `none`, later steps are skipped. Every step that sets,
/// narrows or clamps is recorded in ``StorageDecision/trail``.
public struct StorageHookChain: Sendable {
    /// User hooks, called in order after the built-in steps.
    public var hooks: [any StorageHook]

    /// A chain with `hooks` (default: none) after the built-in steps.
    public init(hooks: [any StorageHook] = []) {
        self.hooks = hooks
    }

    /// Decides where and how long `proposal`'s response is kept.
    ///
    /// 1. `rfc9111`: on a shared-cache tier whose `setCookie` is `refuse`, a response that sets a cookie → `none`
    ///    (`set-cookie-in-shared-cache`: one client's cookie is never replayed to another); `.notStorable(reason)`
    ///    → `none` with that reason; an answer to a range request with a status other than `200` → `none`
    ///    (`answer-to-range-request`); `.storable(ttl)` → `disk` (widest), ttl clamped to 0…2,147,483,648,
    ///    reason `rfc9111-storable`.
    /// 2. `tier`: class narrowed to the tier's `storage` (`tier-storage`), or `none` (`no-partition`)
    ///    on a `partition: credential` tier without a request credential; ttl capped at `maxTTL`
    ///    (`tier-max-ttl`), or at `unversionedMaxTTL` without the version parameter (`unversioned-max-ttl`), less the
    ///    response's current age (RFC 9111 §4.2.3: a response already as old as the cap is `none`, `age-over-max-ttl`).
    /// 3. `limits`: body over `maxObjectBytes` → `over-size-limit`; width × height over `maxPixels` →
    ///    `over-pixel-limit`; sniffed format not in `contentTypes` (unless `["*/*"]`; a derived image may also be in a declared variant format) → `not-an-image`.
    /// 4. `hook:<name>` for each user hook (see ``StorageHook``).
    /// 5. `source`: a derived image narrowed to its source's class (``StorageProposal/sourceStorage``,
    ///    `source-storage:<class>`).
    /// 6. `purge`: a purge that began during the exchange (``StorageProposal/Request/purgedDuringExchange``) → `none`
    ///    (`purged-during-fetch`).
    public func decide(_ proposal: StorageProposal) -> StorageDecision {
        var state = Progress()
        if proposal.tier.cache == .shared, proposal.tier.setCookie == .refuse, proposal.response.setsCookie {
            state.set("rfc9111", .none, 0, .setCookieInSharedCache)
            return state.decision
        }
        switch proposal.storability {
        case .notStorable(let reason):
            state.set("rfc9111", .none, 0, reason)
            return state.decision
        case .storable where proposal.request.isRangeRequest && proposal.response.status != 200:
            state.set("rfc9111", .none, 0, .answerToRangeRequest)
            return state.decision
        case .storable(let ttl):
            state.set("rfc9111", .disk, min(max(ttl, 0), PolicyFormat.maximumSeconds), .rfc9111Storable)
        }
        let tier = proposal.tier
        if tier.partition == .credential, !proposal.request.hasCredential {
            state.set("tier", .none, 0, .noPartition)
            return state.decision
        }
        state.set("tier", min(state.storage, tier.storage), state.ttl, .tierStorage)
        if state.storage == .none { return state.decision }
        let fullCap = tier.ttlCap(versioned: proposal.request.hasVersionParameter)
        let age = max(0, proposal.response.currentAge)
        if age >= fullCap && fullCap > 0 {
            state.set("tier", .none, 0, .ageOverMaxTTL)
            return state.decision
        }
        let cap = max(0, fullCap - age)
        if state.ttl > cap {
            state.record("tier", state.storage, cap, fullCap < tier.maxTTL ? .unversionedMaxTTL : .tierMaxTTL)
        }
        if let key = proposal.negative {
            // A negative entry answers every caller: only where the tier allows one, for at most its errorTTL.
            guard let lifetime = tier.errorLifetime(key: key), !proposal.request.hasCredential else {
                state.set("tier", .none, 0, .statusNotStorable)
                return state.decision
            }
            state.set("tier", state.storage, min(state.ttl, lifetime), .errorTTL)
        }
        if let reason = limitViolation(proposal) {
            state.set("limits", .none, 0, reason)
            return state.decision
        }
        for hook in hooks {
            runHook(hook, proposal, &state)
            if state.storage == .none { return state.decision }
        }
        if let source = proposal.sourceStorage, state.storage > source {
            state.set("source", source, state.ttl, .sourceStorage(source))
            if state.storage == .none { return state.decision }
        }
        if proposal.request.purgedDuringExchange {
            state.set("purge", .none, 0, .purgedDuringFetch)
        }
        return state.decision
    }

    /// The first limit `proposal` breaks, or `nil`.
    func limitViolation(_ proposal: StorageProposal) -> StorageReason? {
        let tier = proposal.tier, body = proposal.body
        if body.byteCount > tier.maxObjectBytes { return .overSizeLimit }
        if let pixels = body.pixelCount, pixels > tier.maxPixels { return .overPixelLimit }
        if tier.validatesImages, proposal.negative == nil,
           !(body.format.map { tier.accepts(mediaType: $0) || Self.isDeclaredVariantFormat($0, proposal) } ?? false) {
            return .notAnImage
        }
        return nil
    }

    /// Whether `format` is a derived image's, in a format the tier's `variants` declare (`image/jxl` need not be in
    /// `contentTypes`, which lists what origins may send), a derived `?info=1` answer's (`application/json`), or an
    /// animation's GIF on a tier with `animation`.
    static func isDeclaredVariantFormat(_ format: String, _ proposal: StorageProposal) -> Bool {
        guard proposal.sourceStorage != nil, let variants = proposal.tier.variants else { return false }
        return format == "application/json" || (format == "image/gif" && proposal.tier.animation != nil)
            || variants.formats.contains { "image/" + $0 == format }
    }

    private func runHook(_ hook: any StorageHook, _ proposal: StorageProposal, _ state: inout Progress) {
        let stage = "hook:\(hook.name)"
        let offer = StorageChoice(storage: state.storage, ttl: state.ttl)
        let answer = hook.willStore(proposal, proposed: offer) ?? StorageChoice(storage: .none, ttl: 0)
        if answer.storage > offer.storage || answer.ttl > offer.ttl {
            state.record(stage, offer.storage, offer.ttl, .hookWideningClamped)
        }
        let storage = min(answer.storage, offer.storage)
        let ttl = storage == .none ? 0 : min(max(answer.ttl, 0), offer.ttl)
        if storage < offer.storage {
            state.set(stage, storage, ttl, .hookNarrowed(storage))
        } else if ttl < offer.ttl {
            state.record(stage, storage, ttl, .hookTTLNarrowed)
        }
    }

    /// The decision being built.
    private struct Progress {
        var storage = StorageClass.none
        var ttl = 0
        var reason = StorageReason.tierStorage
        var trail: [StorageDecision.Step] = []

        /// A step that sets the class: its reason becomes the decision's reason.
        mutating func set(_ stage: String, _ storage: StorageClass, _ ttl: Int, _ reason: StorageReason) {
            record(stage, storage, storage == .none ? 0 : ttl, reason)
            self.reason = reason
        }

        /// A step that changes only the time to live, or records a clamp.
        mutating func record(_ stage: String, _ storage: StorageClass, _ ttl: Int, _ reason: StorageReason) {
            self.storage = storage
            self.ttl = ttl
            trail.append(StorageDecision.Step(stage: stage, storage: storage, ttl: ttl, reason: reason))
        }

        var decision: StorageDecision { StorageDecision(storage: storage, ttl: ttl, reason: reason, trail: trail) }
    }
}
