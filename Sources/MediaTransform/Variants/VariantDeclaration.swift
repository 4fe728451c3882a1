/// A tier's `variants` declaration: the only sizes, formats and qualities a request may ask for.
///
/// Policy-file shape (all sizes in output pixels, i.e. CSS px × dpr):
/// ```json
/// "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp", "avif", "png"],
///               "maxDpr": 3, "quality": 80,
///               "heights": [144, 288], "maxOutputPixels": 331776, "maxAVIFWidth": 576 }
/// ```
/// `heights`, `maxOutputPixels` and `maxAVIFWidth` are optional. The value is taken as given (the policy
/// loader validates it); ``VariantQuery/parse(_:declaration:passThrough:accept:avifAvailable:)`` stays total
/// for any declaration, empty lists and a `maxDpr` below 1 included (read as 1).
public struct VariantDeclaration: Sendable, Hashable {
    /// Allowed output widths in pixels (`w` × `dpr` must be one of them), in declared order.
    public var widths: [Int]
    /// Allowed output heights in pixels (`h` × `dpr`), or `nil`: a height must then be one of ``widths``.
    public var heights: [Int]?
    /// Formats a request may name with `fmt`, in declared order (the order error texts list them in).
    public var formats: [OutputFormat]
    /// Largest device-pixel ratio `dpr` accepted, an integer (default 1: `dpr` other than 1 is refused).
    public var maxDpr: Int
    /// Encoder quality 1–100 when the request gives no `q` (default 80), for formats ``qualities`` does not list.
    public var quality: Int
    /// Encoder quality per format when the request gives no `q`, or `nil` (``quality`` for every format).
    public var qualities: [OutputFormat: Int]?
    /// AVIF encoder effort, 0 (fastest) to 9 (default 2).
    public var avifEffort: Int
    /// Largest output width × height in pixels when a request gives a height (default: the largest width
    /// × the largest allowed height).
    public var maxOutputPixels: Int
    /// Largest output width in pixels encoded as AVIF (default 576). AVIF encoding costs about 350 ms per
    /// 500 px image, so an explicit `fmt=avif` above it is refused and `fmt=auto` picks WebP instead.
    public var maxAVIFWidth: Int

    /// Whether a request without `dpr` chooses its width from the client hints `Sec-CH-Width` and `Sec-CH-DPR`
    /// (``ClientHints``) on the same ladder as `dpr` (default `false`).
    public var clientHints: Bool
    /// Native apps' format preferences by profile name (`profile=NAME`): the first listed format this
    /// declaration's ``formats`` hold (and that can be encoded at the width) is served.
    public var clientProfiles: [String: [OutputFormat]]
    /// The tier's `animation`: animated sources within it keep their frames; `nil`: every variant is a still.
    public var animation: AnimationBudget?

    /// The default ``avifEffort``: 2.
    public static let defaultAVIFEffort = 2

    /// The default ``maxAVIFWidth``, in pixels.
    public static let defaultMaxAVIFWidth = 576

    /// - Parameter maxOutputPixels: `nil` for the default, the largest width × the largest of `heights`
    ///   (or of `widths` when `heights` is `nil`); 0 when a list is empty, `Int.max` if the product overflows.
    public init(widths: [Int], heights: [Int]? = nil, formats: [OutputFormat], maxDpr: Int = 1, quality: Int = 80,
                maxOutputPixels: Int? = nil, maxAVIFWidth: Int = VariantDeclaration.defaultMaxAVIFWidth,
                clientHints: Bool = false, clientProfiles: [String: [OutputFormat]] = [:],
                qualities: [OutputFormat: Int]? = nil, avifEffort: Int = VariantDeclaration.defaultAVIFEffort,
                animation: AnimationBudget? = nil) {
        self.animation = animation
        self.qualities = qualities
        self.avifEffort = avifEffort
        self.clientHints = clientHints
        self.clientProfiles = clientProfiles
        self.widths = widths
        self.heights = heights
        self.formats = formats
        self.maxDpr = maxDpr
        self.quality = quality
        self.maxAVIFWidth = maxAVIFWidth
        if let maxOutputPixels {
            self.maxOutputPixels = maxOutputPixels
        } else {
            let largest = (widths.max() ?? 0, (heights ?? widths).max() ?? 0)
            let (product, overflow) = largest.0.multipliedReportingOverflow(by: largest.1)
            self.maxOutputPixels = overflow ? Int.max : product
        }
    }

    /// The allowed output heights: ``heights``, or ``widths`` when there are none.
    public var allowedHeights: [Int] { heights ?? widths }

    /// The srcset ladder: the smallest of `sizes` at or above `target` pixels, or the largest of `sizes` when none
    /// is (a request is never refused for being large); `nil` when `sizes` is empty.
    public static func ladder(_ target: Int, in sizes: [Int]) -> Int? {
        sizes.filter { $0 >= target }.min() ?? sizes.max()
    }

    /// ``maxDpr``, read as 1 when below 1 (a `dpr` of 1 is always allowed).
    public var effectiveMaxDpr: Int { max(1, maxDpr) }
}
