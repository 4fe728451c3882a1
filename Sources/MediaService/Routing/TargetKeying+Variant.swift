import MediaTransform

extension TargetKeying {
    /// A request's derived image (or none) on a tier with `variants`, and the URL its source is fetched from.
    struct SelectedVariant: Sendable {
        /// The variant, or `nil` when the query selects none (the source itself is requested).
        var selection: VariantSelection?
        /// The route's origin URL without the variant parameters and empty query items (the version parameter
        /// kept), so `?`, `?&` and `?&&` are the source itself, one key, never new objects.
        var sourceURL: String
    }

    /// Reads the variant parameters of `match`'s query on a tier with `variants` (docs/variants.md).
    /// - Returns: the variant (or none) and the source URL; `nil` when the tier has no variants or the request
    ///   has no query; a ``MediaTransform/VariantError`` (`variant-not-allowed`, answered `400`) for anything the
    ///   tier does not declare.
    /// - Parameter hints: the request's client hints (read on a tier whose `variants` set `clientHints`), `nil` for none.
    static func selectVariant(_ match: RouteMatch, runtime: TierRuntime, accept: String?,
                              hints: ClientHints? = nil) -> Result<SelectedVariant?, VariantError> {
        guard let declaration = runtime.variantDeclaration, let query = match.query else { return .success(nil) }
        let parsed: ParsedVariantQuery?
        do {
            parsed = try VariantQuery.parse(query, declaration: declaration,
                                            passThrough: (runtime.tier.versionParameter.map { [$0] } ?? []) + runtime.tier.passQueryParameters,
                                            accept: accept, hints: hints, avifAvailable: VipsRuntime.canSaveAVIF,
                                            jxlAvailable: VipsRuntime.canSaveJXL)
        } catch {
            return .failure(error)
        }
        let url = match.upstreamURL
        var base = url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
        guard let parsed else {
            // No variant parameter: every non-empty item is a pass-through one (the version parameter, passQueryParameters).
            let items = query.split(separator: "&", omittingEmptySubsequences: true)
            if !items.isEmpty { base += "?" + items.joined(separator: "&") }
            return .success(SelectedVariant(selection: nil, sourceURL: base))
        }
        if let remaining = parsed.remainingQuery { base += "?" + remaining }
        return .success(SelectedVariant(selection: VariantSelection(spec: parsed.spec, negotiated: parsed.negotiated,
                                                                         hintFields: parsed.hintFields),
                                        sourceURL: base))
    }
}
