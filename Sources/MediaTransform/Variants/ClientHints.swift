import MediaCore

/// The responsive-image client hints a request carries (HTTP Client Hints, RFC 8942; the hints' fields as Chromium
/// sends them once a page opts in with `Accept-CH`): `Sec-CH-DPR`, the device-pixel ratio (a decimal such as `2` or
/// `2.625`), and `Sec-CH-Width`, the image's intended display width in device pixels (an integer).
///
/// Read only on a tier whose `variants` set `clientHints` and only when the query has no `dpr`
/// (``VariantQuery/parse(_:declaration:passThrough:accept:hints:avifAvailable:)``). A hint that is not a
/// well-formed value is ignored, as an absent one is (a hint is advice, never a reason to refuse).
public struct ClientHints: Sendable, Hashable {
    /// The field that carries the device-pixel ratio: `Sec-CH-DPR`.
    public static let dprField = "Sec-CH-DPR"
    /// The field that carries the intended display width in device pixels: `Sec-CH-Width`.
    public static let widthField = "Sec-CH-Width"

    /// The device-pixel ratio, when `Sec-CH-DPR` is a decimal above 0 and at most 100.
    public var dpr: Double?
    /// The display width in device pixels, when `Sec-CH-Width` is an integer from 1 to 999,999,999.
    public var width: Int?

    /// Reads the two fields' values (`nil`: absent).
    public init(dpr: String?, width: String?) {
        self.dpr = dpr.flatMap(Self.decimal)
        self.width = width.flatMap(Self.integer)
    }

    /// An RFC 8941 decimal or integer above 0 and at most 100 (`2`, `2.625`); `nil` otherwise.
    static func decimal(_ text: String) -> Double? {
        let trimmed = HTTPFields.trim(text)
        let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...3).contains(whole.count), whole.utf8.allSatisfy(isDigit) else { return nil }
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].utf8.allSatisfy(isDigit) else { return nil }
        }
        guard let value = Double(trimmed), value > 0, value <= 100 else { return nil }
        return value
    }

    /// An RFC 8941 integer from 1 to 999,999,999; `nil` otherwise.
    static func integer(_ text: String) -> Int? {
        let trimmed = HTTPFields.trim(text)
        guard (1...9).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy(isDigit), let value = Int(trimmed), value >= 1
        else { return nil }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}
