/// Chooses the output format for `fmt=auto` from the request's `Accept` (RFC 9110 §12.5.1).
///
/// A format counts as accepted only when `Accept` names it explicitly (`image/avif`, `image/webp`, any
/// case) with a weight above 0 and no explicit element gives it `q=0`; `image/*` and `*/*` never count
/// (every browser that can decode AVIF or WebP names them, and `*/*` is sent by clients that cannot).
/// Weights otherwise only separate acceptable from refused: among the accepted formats the server's
/// order applies (JPEG XL, then AVIF, then WebP), since all current browsers weight them equally.
///
/// The `Accept` value never becomes part of a cache key; only the returned ``FormatChoice`` does, and
/// the response carries `Vary: Accept`.
public enum FormatNegotiation {
    /// - Parameters:
    ///   - accept: the `Accept` field value (`nil` when absent; empty, absent and malformed all accept neither).
    ///   - declared: the tier's formats.
    ///   - width: the output width in pixels (`w` × `dpr`).
    ///   - maxAVIFWidth: the widest output encoded as AVIF, in pixels.
    ///   - avifAvailable: whether AVIF can be encoded at all.
    ///   - jxlAvailable: whether JPEG XL can be encoded at all.
    /// - Returns: `.format(.jxl)` when JPEG XL is accepted, declared and available; else `.format(.avif)` when AVIF is
    ///   accepted, declared, available and `width ≤ maxAVIFWidth`; else `.format(.webp)` when WebP is accepted and
    ///   declared; else ``FormatChoice/legacy``.
    public static func choose(accept: String?, declared: [OutputFormat], width: Int, maxAVIFWidth: Int,
                              avifAvailable: Bool, jxlAvailable: Bool = false) -> FormatChoice {
        let ranges = AcceptMediaRange.parse(accept ?? "")
        if jxlAvailable && declared.contains(.jxl) && accepts(.jxl, ranges) { return .format(.jxl) }
        if avifAvailable && declared.contains(.avif) && width <= maxAVIFWidth && accepts(.avif, ranges) {
            return .format(.avif)
        }
        if declared.contains(.webp) && accepts(.webp, ranges) { return .format(.webp) }
        return .legacy
    }

    /// Whether `ranges` name `image/<format>` explicitly, never with weight 0, at least once above 0.
    static func accepts(_ format: OutputFormat, _ ranges: [AcceptMediaRange]) -> Bool {
        let named = ranges.filter { $0.type == "image" && $0.subtype == format.rawValue }
        return !named.isEmpty && named.allSatisfy { $0.weight > 0 }
    }

    /// Whether `accept` explicitly accepts `format` (``choose(accept:declared:width:maxAVIFWidth:avifAvailable:)``'s test).
    public static func accepts(_ format: OutputFormat, accept: String?) -> Bool {
        accepts(format, AcceptMediaRange.parse(accept ?? ""))
    }
}
