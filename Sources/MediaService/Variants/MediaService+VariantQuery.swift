import MediaTransform

extension MediaService {
    /// A variant request's selection and the URL its source is fetched from.
    struct SelectedVariant: Sendable {
        var selection: VariantSelection
        /// The route's origin URL without the variant parameters (the version parameter kept).
        var sourceURL: String
    }

    /// Reads the variant parameters of `match`'s query on a tier with `variants` (docs/variants.md).
    /// - Returns: `nil` when the query selects no variant (the source itself is requested); a
    ///   ``MediaTransform/VariantError`` (`variant-not-allowed`, answered `400`) for anything the tier does not declare.
    func selectVariant(_ match: RouteMatch, runtime: TierRuntime, accept: String?) -> Result<SelectedVariant?, VariantError> {
        guard let declaration = runtime.variantDeclaration, let query = match.query else { return .success(nil) }
        let parsed: ParsedVariantQuery?
        do {
            parsed = try VariantQuery.parse(query, declaration: declaration,
                                            passThrough: runtime.tier.versionParameter.map { [$0] } ?? [],
                                            accept: accept, avifAvailable: VipsRuntime.canSaveAVIF)
        } catch {
            return .failure(error)
        }
        guard let parsed else { return .success(nil) }
        let url = match.upstreamURL
        var base = url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
        if let remaining = parsed.remainingQuery { base += "?" + remaining }
        return .success(SelectedVariant(selection: VariantSelection(spec: parsed.spec, negotiated: parsed.negotiated),
                                        sourceURL: base))
    }
}
