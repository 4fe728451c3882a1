/// A variant query that ``VariantQuery/parse(_:declaration:passThrough:accept:avifAvailable:)`` accepted.
public struct ParsedVariantQuery: Sendable, Hashable {
    /// The validated, normalised variant (output pixels, `dpr` folded in).
    public var spec: VariantSpec
    /// The pass-through items (such as the tier's version parameter `v=3`) in their original order and
    /// spelling, joined with `&`: the query the source is fetched with. `nil` when there are none.
    public var remainingQuery: String?
    /// `true` for `fmt=auto`: the format was chosen from `Accept`, so the response must carry
    /// `Vary: Accept` (the key holds only the chosen ``FormatChoice``, never the `Accept` value).
    public var negotiated: Bool
    /// The client hints the width was chosen from (``ClientHints/widthField``, and ``ClientHints/dprField`` when
    /// `Sec-CH-Width` was not usable), for the response's `Vary`; empty when the query chose it (`dpr`, or a tier
    /// without `clientHints`).
    public var hintFields: [String]

    public init(spec: VariantSpec, remainingQuery: String?, negotiated: Bool, hintFields: [String] = []) {
        self.spec = spec
        self.remainingQuery = remainingQuery
        self.negotiated = negotiated
        self.hintFields = hintFields
    }
}
