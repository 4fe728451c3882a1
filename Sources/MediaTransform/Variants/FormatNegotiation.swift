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
    ///   `width ≤ maxAVIFWidth`; WebP when accepted and declared. JPEG gives ``FormatChoice/legacy``, or
    ///   ``FormatChoice/legacyOr(_:)`` with the first servable format after it (for a source with alpha or frames).
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
        func servable(_ format: OutputFormat) -> Bool {
            guard declared.contains(format) else { return false }
            switch format {
            case .jxl: return jxlAvailable && accepts(.jxl, ranges)
            case .avif: return avifAvailable && width <= maxAVIFWidth && accepts(.avif, ranges)
            case .webp: return accepts(.webp, ranges)
            case .jpeg: return true
            case .png, .gif: return false
            }
        }
        guard let index = order.firstIndex(where: servable) else { return .legacy }
        guard order[index] == .jpeg else { return .format(order[index]) }
        // The order ranks opaque photos; for a source with alpha or frames, an accepted format after JPEG beats PNG or GIF.
        return order[(index + 1)...].first(where: servable).map { .legacyOr($0) } ?? .legacy
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
