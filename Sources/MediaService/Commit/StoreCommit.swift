import HTTPCaching
import MediaAudit
import MediaCore
import MediaCrypto
import MediaPolicy
import MediaStorage

/// Steps 6–8 of the request flow, the last stage before the answer: the storage decision and the write. RFC 9111
/// storability gives the proposal, the hook chain (``MediaPolicy/StorageHookChain``) decides and owns every veto (a
/// cookie in a shared cache, an answer to a range request, a derived image's source class, a purge during the
/// exchange), and the store happens with its audit record, written before the bytes become visible (``StoreGate``).
///
/// A value over the service's shared parts: the chain, the auditor, the gate, the integrity key, the purge epoch and
/// the keyed digest of sensitive `Vary` fields (``MediaService/storeCommit``).
struct StoreCommit: Sendable {
    let chain: StorageHookChain
    let auditor: ServiceAuditor
    let gate: StoreGate
    let integrityKey: IntegrityKey
    let purgeEpoch: PurgeEpoch
    let keys: any RequestKeys

    /// The keyed digest of a sensitive `Vary` field's value (``RequestKeys/digest(_:)``).
    func digest(_ value: String) -> String { keys.digest(value) }
}

extension StoreCommit {
    /// Steps 6–8: RFC 9111 storability, the hook chain, the store, the audit record.
    /// The audit record is written before the bytes: an object never exists without its record.
    /// - Parameter servedETag: the `ETag` served for a stripped original (``StoredHead/servedETag``), or `nil`.
    func decideAndStore(_ context: RequestContext, response: OriginResponse, fields: HTTPFields, image: ImageInfo?,
                        requestTime: Double, responseTime: Double, reason: CacheStatus.Forward,
                        servedETag: String? = nil) -> Exchange {
        let tier = context.tier
        var responseFields = response.fields
        // The origin's cache tags are kept as keyed digests, never as its field (docs/policy-format.md, "Cache tags").
        let tags = cacheTags(in: responseFields, tier: tier)
        if let tagHeader = tier.tagHeader { responseFields.remove(HTTPFieldName(tagHeader)) }
        if let image {
            // The declared type never decides; the origin's cookies never reach image clients.
            responseFields.set(.contentType, image.format.mimeType)
            responseFields.remove(.setCookie)
        }
        responseFields.set(.contentLength, String(response.body.count))
        let outcome = StoredResponse.storing(
            method: "GET", requestFields: fields, status: response.status, responseFields: responseFields,
            role: context.role, requestTime: Int64(requestTime), responseTime: Int64(responseTime), digest: digest,
            targets: context.targets)
        let stored: StoredResponse
        let storability: StorageProposal.Storability
        switch outcome {
        case .store(let candidate):
            stored = candidate
            storability = .storable(ttl: Int(candidate.remainingFreshness(now: Int64(responseTime), role: context.role,
                                                                          configuration: tier.freshness)))
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
                           isRangeRequest: fields.contains(.range),
                           purgedDuringExchange: wasPurgedDuringExchange(context)),
            response: .init(status: response.status, fields: responseFields,
                            currentAge: Int(min(stored.currentAge(now: Int64(responseTime)), Int64(Int32.max))),
                            setsCookie: stored.fields.contains(.setCookie)),
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
        if decision.storage != .none, context.runtime.variantDeclaration != nil, image != nil {
            // Paid once here, read by every variant miss of this source (ImageDerivation).
            head.bodyDigest = SHA256.hash(response.body).hex
        }
        let entry = StoredEntry(
            metadata: EntryMetadata(key: storeKey, tier: tier.name, route: context.route.name, partition: context.partition,
                                    head: head.encoded(), requestTime: requestTime, responseTime: responseTime,
                                    expiresAt: Self.expiresAt(responseTime: responseTime, ttl: Int64(decision.ttl), tier: tier),
                                    lifetime: Double(policyTTL), tags: tags),
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
    ///   - negative: a negative entry's status (its `store` record's `status`), else `nil`.
    /// - Returns: what to serve; its ``Exchange/Content/storeKey`` and `expiresAt` are set only when stored.
    func storeDecided(_ entry: StoredEntry, response: StoredResponse, head: StoredHead, decision: StorageDecision,
                      subject: ServiceAuditor.Subject, context: RequestContext, status base: CacheStatus,
                      derivation: ServiceAuditor.Derivation? = nil, source: (group: String, generation: Int)? = nil,
                      negative: HTTPStatus? = nil) -> Exchange.Content
    {
        var status = base
        guard decision.storage != .none, let store = context.runtime.store(for: decision.storage) else {
            try? auditor.record(.skip, subject, storage: .none, reason: decision.reason.rawValue, bytes: entry.body.count, ttl: nil)
            context.runtime.counters.bump(.skipped)
            status.detail = decision.reason.rawValue
            return Exchange.Content(response: response, head: head, body: entry.body, cacheStatus: status,
                                    storage: .notStored, reason: decision.reason.rawValue, tags: entry.metadata.tags)
        }
        status.ttl = Int64(decision.ttl)
        if let failure = commit(entry, into: store, storeKey: entry.metadata.key, subject: subject, decision: decision,
                                context: context, derivation: derivation, source: source, negative: negative) {
            status.detail = failure
        } else {
            status.stored = true
            status.detail = decision.storage.rawValue
        }
        var content = Exchange.Content(response: response, head: head, body: entry.body, cacheStatus: status,
                                       storage: .stored(status.stored ? decision.storage : .none),
                                       reason: decision.reason.rawValue, tags: entry.metadata.tags)
        if status.stored {
            content.storeKey = entry.metadata.key
            content.expiresAt = entry.metadata.expiresAt
        }
        return content
    }

    /// The keyed digests (``MediaStorage/IntegrityKey/tagDigest(_:)``) of the cache tags `fields` carry in the tier's
    /// `tagHeader`, in order; none when the tier names no `tagHeader`.
    func cacheTags(in fields: HTTPFields, tier: Tier) -> [CacheTagDigest] {
        tier.cacheTags(in: fields).map(integrityKey.tagDigest)
    }

    /// Whether a purge started after `context` was admitted: its answer may belong to what the
    /// purge removed, so it is not stored (a 304 then updates nothing and the representation is
    /// fetched again, not stored either).
    func wasPurgedDuringExchange(_ context: RequestContext) -> Bool {
        purgeEpoch.current != context.purgeEpoch
    }

    /// When a stored response may be swept: its time to live, plus (on tiers that are not partitioned) the
    /// tier's `maxTTL` during which it can still be revalidated; partitioned tiers keep nothing stale.
    static func expiresAt(responseTime: Double, ttl: Int64, tier: Tier) -> Double {
        let keepFor = Double(ttl) + (tier.partition == .credential ? 0 : Double(tier.maxTTL))
        return responseTime + max(keepFor, 1)
    }
}

extension StoreCommit {
    /// Step 8: stores a decided entry and writes its `store` record, under the ``StoreGate`` (shared) and,
    /// for file stores, the store's lock (the record is written as the entry becomes visible, so the
    /// store's own events for the key are never recorded out of order).
    ///
    /// - A purge that began since admission is seen here at the latest: nothing is stored, audited
    ///   `skip` `purged-during-fetch`. A purge that begins later waits for this section, then removes the entry.
    /// - A store that refuses the entry before its record (larger than its per-entry cap, stopped, a temp
    ///   file that cannot be written) gives `skip` `store-failed`; one that fails after it, `evict` `store-failed`.
    /// - While the audit log cannot be written (``ServiceAuditor/writerFailed``, docs/operations.md "When the audit
    ///   log cannot be written") nothing is stored: `audit-unavailable` (its `skip` is refused by the log and counted
    ///   in the gap record). A `store` record the log refuses gives the same, with no `skip` after it.
    /// - Returns: `nil` when stored, else the reason it was not (for `Cache-Status: detail`).
    /// - Parameter derivation: a variant's source and parameters, for its `store` record (`derivedFrom`, `transform`).
    ///   - negative: a negative entry's status, for its `store` record (`status`).
    ///   - source: a variant's source group and its change counter when the source was captured: a source that
    ///     changed since (a new response stored, invalidated) gives `skip` `source-changed-during-derivation`.
    func commit(_ entry: StoredEntry, into store: any MediaStoring, storeKey: String, subject: ServiceAuditor.Subject,
                decision: StorageDecision, context: RequestContext, derivation: ServiceAuditor.Derivation? = nil,
                source: (group: String, generation: Int)? = nil, negative: HTTPStatus? = nil) -> String? {
        let counters = context.runtime.counters
        let bytes = entry.body.count
        // Computed once, outside the gate and the store's lock; the disk store tags the file with the same value.
        let bodyDigest = bodyDigest(of: entry, storage: decision.storage)
        return gate.shared { () -> String? in
            guard !wasPurgedDuringExchange(context) else {
                try? auditor.record(.skip, subject, storage: .none, reason: "purged-during-fetch", bytes: bytes, ttl: nil)
                counters.bump(.skipped)
                return "purged-during-fetch"
            }
            if let source, context.runtime.derivedIndex.generation(of: source.group) != source.generation {
                try? auditor.record(.skip, subject, storage: .none, reason: "source-changed-during-derivation",
                                    bytes: bytes, ttl: nil)
                counters.bump(.skipped)
                return "source-changed-during-derivation"
            }
            guard !auditor.writerFailed else {
                try? auditor.record(.skip, subject, storage: .none, reason: ReasonCode.auditUnavailable.rawValue,
                                    bytes: bytes, ttl: nil)
                counters.bump(.skipped)
                return ReasonCode.auditUnavailable.rawValue
            }
            var recorded = false
            do {
                // One stored response per store key: drop copies another class may hold.
                for other in context.runtime.decidedStores where other !== store { other.remove(storeKey) }
                try context.runtime.store(entry, in: store, for: storeKey) {
                    try auditor.record(.store, subject, storage: decision.storage, reason: decision.reason.rawValue,
                                       bytes: bytes, ttl: decision.ttl, derivation: derivation, bodyDigest: bodyDigest,
                                       status: negative, keyId: keyID(storage: decision.storage, entry: entry, context: context))
                    recorded = true
                }
            } catch let error as AuditError where !recorded && (error.code == .io || error.code == .unavailable) {
                // The log could not write the `store` record (nothing stored): a `skip` would be refused too.
                counters.bump(.skipped)
                return ReasonCode.auditUnavailable.rawValue
            } catch {
                try? auditor.record(recorded ? .evict : .skip, subject, storage: recorded ? decision.storage : .none,
                                    reason: "store-failed", bytes: recorded ? nil : bytes, ttl: nil)
                counters.bump(.skipped)
                return "store-failed"
            }
            context.runtime.indexStoredResponse(storeKey)
            counters.bump(.stored)
            return nil
        }
    }


    /// The `keyId` of a `store`/`update` in `encrypted-disk`: the data key that seals the partition's objects now
    /// (``MediaStorage/EncryptedDiskStore/keyID(partition:)``); `nil` for other classes.
    func keyID(storage: StorageClass, entry: StoredEntry, context: RequestContext) -> String? {
        storage == .encryptedDisk ? context.runtime.sealed?.keyID(partition: entry.metadata.partition) : nil
    }

    /// The `bodyDigest` of a `store`/`update` in `storage`: the body's keyed digest under the install's integrity key
    /// for a body kept in a file (`disk`, `encrypted-disk`), kept with `entry` (so a disk store writing it tags the file
    /// with the same value, and a body read from a disk file has it already); `nil` for `memory` and `none`.
    func bodyDigest(of entry: StoredEntry, storage: StorageClass) -> [UInt8]? {
        storage == .disk || storage == .encryptedDisk ? entry.bodyDigest(under: integrityKey) : nil
    }
}
