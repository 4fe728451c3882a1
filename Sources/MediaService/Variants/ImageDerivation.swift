import Foundation
import HTTPCaching
import MediaCore
import MediaCrypto
import MediaPolicy
import MediaTransform

/// The derive stage (docs/variants.md, docs/architecture.md "Stages"): a derived image of a source
/// ``Representation``, made on the transform workers, validated like an origin's image, then decided by the hook
/// chain (never wider than the source's class, the same partition) and stored with its audit record (`derivedFrom`).
///
/// A value over the commit stage (chain, auditor, gate, purge epoch), the transform settings and the service clock's
/// time; ``CacheLookup`` gets the source (``CacheLookup/derive(_:stored:selection:reason:stale:)``) and coalesces
/// derivations.
struct ImageDerivation {
    let commit: StoreCommit
    let transforms: TransformConfiguration
    /// The service clock (seconds since 1970), read when the derived image is stored.
    let clock: @Sendable () -> Double

    /// A derived image of `representation` (the source as the source path served it, `original`): the transform
    /// on the worker pool, validation, the storage decision (never wider than the source's class) and the store
    /// with its audit record.
    /// - Parameters:
    ///   - context: the source's request context (no variant selected).
    ///   - stored: the context the variant is looked up and stored under (``MediaService/variantContext(_:_:)``).
    ///   - reason: RFC 9211 `fwd` for the variant's `Cache-Status`, `nil` when the source came from storage.
    ///   - staleSource: the source's `Cache-Status` when it was served stale (``Served/staleStatus``): the variant's
    ///     answer carries its `fwd`, `fwd-status`, `ttl` (at most) and `detail`.
    ///   - stale: the variant's stored responses that were not usable: one derived from the same source bytes is
    ///     stored again with the source's new freshness instead of being derived again (a revalidated, unchanged
    ///     source costs no transform).
    func derive(from representation: Representation, original: ServiceResponse, context: RequestContext,
                stored: RequestContext, selection: VariantSelection, reason: CacheStatus.Forward?,
                staleSource: CacheStatus? = nil, stale: [Candidate]) async -> Derivation {
        let source = context
        let sourceGeneration = context.runtime.derivedIndex.generation(of: source.groupKey)
        if representation.response.parsed.cacheControl.noTransform {
            // RFC 9110 §7.7: a response with no-transform is served as the origin sent it (a tier that strips
            // metadata refused it before storage).
            var response = original
            response.outcome.reason = "origin-forbids-transform"
            return Derivation(result: .response(response), shareable: false)
        }
        guard let declaration = context.runtime.variantDeclaration else {
            return Derivation(result: .response(original), shareable: false)
        }
        // Computed when the source was stored (StoredHead.bodyDigest); hashed here only for entries stored before.
        let sourceDigest = representation.head.bodyDigest ?? SHA256.hash(representation.body).hex
        if let reusable = stale.first(where: { $0.head.sourceDigest == sourceDigest }),
           let mediaType = reusable.head.contentType, let transform = reusable.head.transform {
            let body = DerivedBody(bytes: reusable.entry.body, mediaType: mediaType, width: reusable.head.width,
                                   height: reusable.head.height, transform: transform,
                                   sourceFrames: reusable.head.sourceFrames ?? 1)
            return store(body, of: representation, sourceDigest: sourceDigest, sourceGeneration: sourceGeneration,
                         source: source, stored: stored, selection: selection, reason: reason, staleSource: staleSource,
                         derived: false)
        }
        let tier = context.tier
        let limits = TransformLimits(maxSourcePixels: tier.maxPixels, maxOutputPixels: declaration.maxOutputPixels)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(transforms.timeout * 1000)))
        let workers = Self.workers(for: selection.spec, transforms)
        let body = representation.body, spec = selection.spec, formats = declaration.formats
        let started = ContinuousClock.now
        let outcome: Result<DerivedBody, TransformError>
        do {
            outcome = try await workers.run { () -> Result<DerivedBody, TransformError> in
                do {
                    if spec.isInfo {
                        return .success(DerivedBody(try ImageTransformer.info(body, limits: limits, deadline: deadline)))
                    }
                    return .success(DerivedBody(try ImageTransformer.derive(body, spec: spec, declared: formats,
                                                                            limits: limits, deadline: deadline),
                                                spec: spec))
                } catch let error as TransformError {
                    return .failure(error)
                } catch {
                    return .failure(TransformError(.encodeFailed, "\(error)"))
                }
            }
        } catch is CancellationError {
            return .dropped(context)
        } catch {
            // A failure is shared with the requests that joined this derivation: each running it again would only
            // queue, time out or fail the same way on the same source bytes.
            return Derivation(result: .response(busy(context, code: "transform-queue-full",
                                                      detail: "\(transforms.queueLimit) transforms are waiting; retry shortly")),
                              shareable: true)
        }
        context.runtime.transformTimes.observe(seconds: Self.seconds(since: started))
        let image: DerivedBody
        switch outcome {
        case .failure(let error) where error.code == .deadlineExceeded:
            return Derivation(result: .response(busy(context, code: "transform-timeout",
                                                      detail: "the transform took longer than \(Responder.seconds(transforms.timeout)) s")),
                              shareable: true)
        case .failure(let error):
            return refuse(context, stored: stored, code: "variant-" + error.code.rawValue,
                                 detail: "the variant could not be derived: \(error.detail)")
        case .success(let derived):
            image = derived
        }
        // A variant's bytes are validated like an origin's before they are stored (info is JSON written here).
        if let width = image.width, let height = image.height {
            do {
                let info = try ImageValidator(configuration: .init(maxPixels: tier.maxPixels, maxBytes: tier.maxObjectBytes))
                    .validate(image.bytes)
                guard info.format.mimeType == image.mediaType, info.width == width, info.height == height else {
                    return refuse(context, stored: stored, code: "variant-invalid",
                                  detail: "the derived image is not the \(image.mediaType) \(width)×\(height) it should be")
                }
            } catch {
                return refuse(context, stored: stored, code: "variant-invalid",
                              detail: "the derived image failed validation: \(error.context)")
            }
        }
        return store(image, of: representation, sourceDigest: sourceDigest, sourceGeneration: sourceGeneration,
                     source: source, stored: stored, selection: selection, reason: reason, staleSource: staleSource,
                     derived: true)
    }

    /// The pool a transform runs on: AVIF encodes on their own threads (``TransformConfiguration/avifWorkers``);
    /// a large output box (more than ``TransformConfiguration/largeOutputPixels``, e.g. 1152×1152: libvips then
    /// decodes at about twice the box and holds 18–21 MiB) on one thread of its own, so two never run at once
    /// and the peak memory of a burst stays near one large transform; everything else on the general pool.
    static func workers(for spec: VariantSpec, _ transforms: TransformConfiguration) -> TransformWorkers {
        if spec.format == .format(.avif) {
            return TransformWorkers.shared("transform-avif", .init(workers: transforms.avifWorkers, queueLimit: transforms.queueLimit))
        }
        if spec.format == .format(.jxl) {
            return TransformWorkers.shared("transform-jxl", .init(workers: transforms.jxlWorkers, queueLimit: transforms.queueLimit))
        }
        if spec.width * (spec.height ?? spec.width) > transforms.largeOutputPixels {
            return TransformWorkers.shared("transform-large", .init(workers: 1, queueLimit: transforms.queueLimit))
        }
        return TransformWorkers.shared("transform", .init(workers: transforms.workers, queueLimit: transforms.queueLimit))
    }

    /// `503` with `Retry-After: 1`: the transform pool is full or a transform ran out of time. Not audited
    /// (no storage decision was made).
    func busy(_ context: RequestContext, code: String, detail: String) -> ServiceResponse {
        var response = Responder.problem(503, code: code, detail: detail, outcome: context.outcome)
        response.fields.set(.retryAfter, "1")
        return response
    }

    /// A variant that could not be derived or validated: audited `skip` with `code`, answered `502`, and that answer
    /// shared with the requests that joined the derivation (the same source bytes fail the same way).
    func refuse(_ context: RequestContext, stored: RequestContext, code: String, detail: String) -> Derivation {
        let storeKey = CacheKey.store(group: stored.groupKey, secondary: .empty)
        try? commit.auditor.record(.skip, subject(stored, storeKey: storeKey, source: context), storage: .none, reason: code,
                            bytes: nil, ttl: nil)
        context.runtime.counters.bump(.refused)
        var outcome = context.outcome
        outcome.storage = .notStored
        return Derivation(result: .response(Responder.problem(502, code: code, detail: detail, outcome: outcome)),
                          shareable: true)
    }

    /// A variant's audit subject: its own key, the source's URL (for tiers whose records carry one).
    func subject(_ stored: RequestContext, storeKey: String, source: RequestContext) -> ServiceAuditor.Subject {
        ServiceAuditor.Subject(tier: stored.tier.name, route: stored.route.name, storeKey: storeKey,
                               partition: stored.partition, url: source.auditURL)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
