/// Chooses the output format for `fmt=auto` from the request's `Accept` (RFC 9110 §12.5.1).
///
/// A format counts as accepted only when `Accept` names it explicitly (`image/avif`, `image/webp`, any
/// case) with a weight above 0 and no explicit element gives it `q=0`; `image/*` and `*/*` never count
/// (every browser that can decode AVIF or WebP names them, and `*/*` is sent by clients that cannot).
/// Weights otherwise only separate acceptable from refused: among the accepted formats the server's
/// order applies, since all current browsers weight them equally: ``FormatRanking``'s at the output width (the fewest
/// bytes at equal quality among the formats that encode within 3× JPEG's time), where JPEG stands for the legacy
/// format every client accepts.
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
    /// - Returns: the first format of ``FormatRanking/order(at:)`` for `width` that can be served: JPEG (the legacy
    ///   format) always; JPEG XL when accepted, declared and available; AVIF when accepted, declared, available and
    ///   `width ≤ maxAVIFWidth`; WebP when accepted and declared. JPEG gives ``FormatChoice/legacy``.
    public static func choose(accept: String?, declared: [OutputFormat], width: Int, maxAVIFWidth: Int,
                              avifAvailable: Bool, jxlAvailable: Bool = false) -> FormatChoice {
        choose(accept: accept, declared: declared, width: width, maxAVIFWidth: maxAVIFWidth, avifAvailable: avifAvailable,
               jxlAvailable: jxlAvailable, order: FormatRanking.order(at: width))
    }

    /// ``choose(accept:declared:width:maxAVIFWidth:avifAvailable:jxlAvailable:)`` over the order `order` (tests give
    /// their own). JPEG counts only when declared (the legacy format of a tier without JPEG is another format, tried
    /// in its own place); when nothing in `order` can be served, ``FormatChoice/legacy``.
    static func choose(accept: String?, declared: [OutputFormat], width: Int, maxAVIFWidth: Int,
                       avifAvailable: Bool, jxlAvailable: Bool, order: [OutputFormat]) -> FormatChoice {
        let ranges = AcceptMediaRange.parse(accept ?? "")
        for format in order {
            switch format {
            case .jxl where jxlAvailable && declared.contains(.jxl) && accepts(.jxl, ranges):
                return .format(.jxl)
            case .avif where avifAvailable && declared.contains(.avif) && width <= maxAVIFWidth && accepts(.avif, ranges):
                return .format(.avif)
            case .webp where declared.contains(.webp) && accepts(.webp, ranges):
                return .format(.webp)
            case .jpeg where declared.contains(.jpeg):
                return .legacy
            default:
                continue
            }
        }
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
