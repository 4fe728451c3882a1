/// Parses a variant request's query (`?w=144&dpr=2&fmt=auto&v=3`) against a tier's ``VariantDeclaration``.
///
/// Parameters (names and values case-sensitive, compared byte for byte, never percent-decoded):
/// - `w`: width in CSS px, a positive integer; required when any variant parameter is present. Without `dpr`
///   (and client hints) it must be one of the declared `widths`; with `dpr` the output width is the srcset
///   ladder's step for `w` × `dpr`: the smallest declared width at or above it, capped at the largest
///   (``VariantDeclaration/ladder(_:in:)``), so every `srcset` candidate is served.
/// - `h`: height in CSS px, a positive integer; without `dpr` it must be one of the declared `heights` (or
///   `widths` when no heights are declared); with `dpr` the output height is the ladder's step over those for
///   `h` scaled as the width was. (`w` × `dpr`) × (`h` × `dpr`), as output, at most `maxOutputPixels`.
/// - Client hints, on a declaration with ``VariantDeclaration/clientHints`` and a query without `dpr`:
///   `Sec-CH-Width` (device pixels) is the ladder's target, else `w` × `Sec-CH-DPR` (clamped to 1…`maxDpr`),
///   else `w`; ``ParsedVariantQuery/hintFields`` names the hints consulted, for `Vary`.
/// - `fit`: `inside` (default) or `cover` (`cover` without `h` is read as `inside`).
/// - `dpr`: device-pixel ratio, an integer from 1 to `maxDpr` (default 1).
/// - `q`: encoder quality, an integer from 1 to 100 (default the tier's `quality`, clamped to 1–100).
/// - `fmt`: a declared format (`jpeg`, `webp`, `avif`, `png`) or `auto`; absent means the source's format.
///
/// Decisions:
/// - Integers are canonical decimal: 1–9 digits, no sign, no leading zero, no fraction (`dpr=1.5`,
///   `dpr=02`, `w=+144`, `w=0144` are refused).
/// - Nothing is percent-decoded. A name is matched as written (`%77=144` is an unknown parameter) and a
///   variant value holding `%` (or `+`) is refused like any other malformed value, so one variant has
///   exactly one spelling. Pass-through values are kept as written, `%` included.
/// - Empty items (`&&`, a leading or trailing `&`) are tolerated and dropped (also from ``ParsedVariantQuery/remainingQuery``).
/// - A parameter without `=` is a name with no value: refused for variant parameters, kept for pass-through ones.
/// - Each variant parameter may appear once; pass-through parameters may repeat (the origin decides).
/// - A variant parameter name listed in `passThrough` is still a variant parameter.
/// - The first problem in query order is reported (unknown name, repetition, malformed value), then, for
///   a query whose items are each well-formed: missing `w`, `w` × `dpr`, `h` × `dpr`, output pixels, AVIF width.
/// - Bounded work: a query over ``maxQueryBytes`` bytes or with more than ``maxParameters`` non-empty
///   items is refused before any item is looked at.
///
/// Formats: no `fmt` gives ``FormatChoice/source``; a declared format gives ``FormatChoice/format(_:)``,
/// except `avif` when AVIF encoding is unavailable, which becomes `webp` when WebP is declared (refused
/// otherwise), and `avif` with `w` × `dpr` above `maxAVIFWidth`, which is refused; `fmt=auto` is
/// ``FormatNegotiation/choose(accept:declared:width:maxAVIFWidth:avifAvailable:)`` and sets
/// ``ParsedVariantQuery/negotiated``. `accept` is only read for `fmt=auto`.
public enum VariantQuery {
    /// Longest query accepted, in bytes (UTF-8).
    public static let maxQueryBytes = 2048
    /// Most non-empty query items accepted (variant and pass-through together).
    public static let maxParameters = 16

    /// - Parameters:
    ///   - query: the raw query string without `?`; `nil` or empty for none.
    ///   - declaration: the tier's variants.
    ///   - passThrough: names kept for the source fetch (the tier's version parameter, e.g. `["v"]`).
    ///   - accept: the request's `Accept` field value (for `fmt=auto`), `nil` when absent.
    ///   - hints: the request's client hints, read when the declaration sets ``VariantDeclaration/clientHints`` and
    ///     the query has no `dpr`; `nil`: none sent.
    ///   - avifAvailable: whether this build can encode AVIF.
    ///   - jxlAvailable: whether this build can encode JPEG XL (`fmt=jxl` is refused, and never negotiated, without).
    /// - Returns: `nil` when the query holds no variant parameter (only pass-through ones, or nothing):
    ///   the original is served.
    /// - Throws: ``VariantError`` (`variant-not-allowed`) for anything else that is not an allowed variant.
    public static func parse(_ query: String?, declaration: VariantDeclaration, passThrough: [String],
                             accept: String?, hints: ClientHints? = nil,
                             avifAvailable: Bool, jxlAvailable: Bool = true) throws(VariantError) -> ParsedVariantQuery? {
        guard let query, !query.isEmpty else { return nil }
        let byteCount = query.utf8.count
        guard byteCount <= maxQueryBytes else {
            throw VariantError(subject: "a query of \(byteCount) bytes",
                               rule: "a query must be at most \(maxQueryBytes) bytes")
        }
        let items = QueryItem.split(Array(query.utf8), limit: maxParameters)
        guard items.count <= maxParameters else {
            throw VariantError(subject: "a query of more than \(maxParameters) parameters",
                               rule: "a query must have at most \(maxParameters) parameters")
        }
        let rules = VariantRules(declaration: declaration, passThrough: passThrough, avifAvailable: avifAvailable,
                                 jxlAvailable: jxlAvailable)
        var found: [VariantParameter: QueryItem] = [:]
        var remaining: [QueryItem] = []
        for item in items {
            guard let parameter = VariantParameter(name: item.name) else {
                guard rules.passThrough.contains(item.nameText) else {
                    throw VariantError(subject: item.shown, rule: rules.parameterRule)
                }
                remaining.append(item)
                continue
            }
            if let earlier = found[parameter] {
                throw VariantError(subject: "\(earlier.shown)&\(item.shown)",
                                   rule: "\(parameter.rawValue) must appear at most once")
            }
            try rules.checkValue(of: parameter, item)
            found[parameter] = item
        }
        guard !found.isEmpty else { return nil }
        let spec = try rules.spec(found, accept: accept, hints: hints)
        let remainingQuery = remaining.isEmpty ? nil
            : remaining.map { String(decoding: $0.raw, as: UTF8.self) }.joined(separator: "&")
        return ParsedVariantQuery(spec: spec.spec, remainingQuery: remainingQuery, negotiated: spec.negotiated,
                                  hintFields: spec.hintFields)
    }
}
