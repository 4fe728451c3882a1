import MediaPolicy
import MediaSigning
import MediaTransform

/// The one keying of a routed URL, for requests and purges alike: ``Admission`` and the synchronous hit path key a
/// request with it, ``PurgeStage`` keys a purge's URL with it, so a purge always removes what a request for the same
/// spelling is served from.
///
/// The steps, in order, after the router has normalised the path (``Router/resolve(_:configuration:)``):
/// 1. a signed tier's four signature parameters are dropped (a request's by verifying them, ``Admission``; a
///    purge's by name, ``removingSignatureParameters(of:)``);
/// 2. the tier's `ignoredQueryParameters` are dropped (``RouteMatch/removingIgnoredQueryParameters(of:)``);
/// 3. on a tier with `variants`, a read's variant parameters are split from its source's URL, empty items
///    dropped and the version and `passQueryParameters` kept (``selectVariant(_:runtime:accept:hints:)``).
struct TargetKeying: Sendable {
    /// The match after steps 1–2: its query is what is keyed and fetched (before a variant's parameters are split).
    var match: RouteMatch
    /// The URL the stored response is fetched from and keyed under: the source's URL, without a variant's parameters.
    var sourceURL: String
    /// The derived image the query selects, or `nil`.
    var variant: VariantSelection?

    /// Keys `match` (signature parameters already dropped) on `runtime`'s tier.
    /// - Parameters:
    ///   - selectsVariant: whether a variant is read from the query (reads; a purge keys as a read does).
    ///   - accept: the request's `Accept` (`fmt=auto`); `nil` for a purge or the synchronous hit path.
    ///   - hints: the request's client hints (a tier whose `variants` set `clientHints`); `nil` for none.
    /// - Returns: the keying, or the ``MediaTransform/VariantError`` a request for it is refused with (`400`).
    static func key(_ match: RouteMatch, runtime: TierRuntime, selectsVariant: Bool = true,
                    accept: String?, hints: ClientHints? = nil) -> Result<TargetKeying, VariantError> {
        let match = match.removingIgnoredQueryParameters(of: runtime.tier)
        var keying = TargetKeying(match: match, sourceURL: match.upstreamURL, variant: nil)
        guard selectsVariant else { return .success(keying) }
        switch Self.selectVariant(match, runtime: runtime, accept: accept, hints: hints) {
        case .success(let selected?):
            keying.variant = selected.selection
            keying.sourceURL = selected.sourceURL
        case .success(nil):
            break
        case .failure(let error):
            return .failure(error)
        }
        return .success(keying)
    }

    /// The source's primary key on `runtime`'s tier (``CacheKey/primary(tier:url:)``): every partition's stored
    /// responses of the source, its negative entry and its derived images are keyed under it.
    func primaryKey(on runtime: TierRuntime) -> String {
        runtime.primaryKey(url: sourceURL)
    }
}

extension RouteMatch {
    /// This match without the query items named `exp`, `sub`, `kid` or `sig` when `tier` accepts signed URLs: the
    /// query a verified signature leaves (``MediaSigning/VerifiedSignature/query``), for a URL keyed without being
    /// verified (a purge of a signed URL copied from a report). Itself otherwise.
    func removingSignatureParameters(of tier: Tier) -> RouteMatch {
        guard tier.signedURLs != nil, let query,
              let items = SignatureVerifier.parameters(ofSigned: Substring(query)) else { return self }
        let others = items.filter { !SignatureVerifier.isSignatureParameter(SigningString.split($0).name) }
        return replacingQuery(others.isEmpty ? nil : others.joined(separator: "&"))
    }
}
