extension Tier {
    /// Derived images a tier allows (policy key `variants`, docs/variants.md): the sizes, formats and
    /// quality a request's `w`, `h`, `fit`, `dpr`, `q` and `fmt` query parameters may select. A variant is
    /// kept under its source's tier, partition and storage class.
    public struct Variants: Sendable, Hashable {
        /// Output widths allowed, pixels (`w` × `dpr` must be one of them), ascending, distinct, 1–8,192.
        /// Required.
        public var widths: [Int]
        /// Output heights allowed, pixels (`h` × `dpr`), or `nil`: a height must be one of ``widths``.
        /// Default: `nil`.
        public var heights: [Int]?
        /// Output formats allowed, in declared order: `jpeg`, `webp`, `avif`, `png`. Required.
        public var formats: [String]
        /// Largest device-pixel ratio (`dpr`), 1–4. Default: 1.
        public var maxDpr: Int
        /// Encoder quality when the request has no `q`, 1–100. Default: 80.
        public var quality: Int
        /// Largest output image (width × height), pixels; `nil`: the largest width × the largest height (or
        /// width). Default: `nil`.
        public var maxOutputPixels: Int?
        /// Largest AVIF output width, pixels (AVIF encoding costs about 7–17× JPEG's): wider `fmt=avif`
        /// requests are refused and `fmt=auto` picks WebP. Default: 576.
        public var maxAVIFWidth: Int
        /// Whether a request without `dpr` chooses its output width from the client hints `Sec-CH-Width` and
        /// `Sec-CH-DPR` on the srcset ladder (the answer then carries `Vary` with the hints it read). Default: `false`.
        public var clientHints: Bool
        /// Native apps' format preferences by profile name (`"ios17": ["avif", "webp", "jpeg"]`): `profile=NAME`
        /// serves the first listed format the tier declares (and can encode at that width). Default: none.
        public var clientProfiles: [String: [String]]
        /// Encoder quality per format when the request has no `q` (`"quality": {"jpeg": 80, "webp": 79, …}`), or `nil`
        /// (``quality`` for every format). Formats it does not list use ``quality`` (80). Default: `nil`.
        public var qualities: [String: Int]?
        /// AVIF encoder effort, 0 (fastest) to 9 (libaom `cpu-used` 9 − effort). Default: 2.
        public var avifEffort: Int

        /// Most profiles a tier may declare: 16.
        public static let maximumClientProfiles = 16

        /// The format names a tier may declare.
        public static let formatNames = ["jpeg", "webp", "avif", "png", "jxl"]
        /// Largest width or height a tier may declare: 8,192 pixels.
        public static let maximumDimension = 8192

        public init(widths: [Int], heights: [Int]? = nil, formats: [String], maxDpr: Int = 1, quality: Int = 80,
                    maxOutputPixels: Int? = nil, maxAVIFWidth: Int = 576, clientHints: Bool = false,
                    clientProfiles: [String: [String]] = [:], qualities: [String: Int]? = nil, avifEffort: Int = 2) {
            self.qualities = qualities
            self.avifEffort = avifEffort
            self.clientHints = clientHints
            self.clientProfiles = clientProfiles
            self.widths = widths
            self.heights = heights
            self.formats = formats
            self.maxDpr = maxDpr
            self.quality = quality
            self.maxOutputPixels = maxOutputPixels
            self.maxAVIFWidth = maxAVIFWidth
        }

        /// The output-pixel cap in force: ``maxOutputPixels``, or the largest width × largest height (or width).
        public var outputPixelCap: Int {
            if let maxOutputPixels { return maxOutputPixels }
            let width = widths.max() ?? 0
            return width * (heights?.max() ?? width)
        }
    }

    /// Animated derived images (policy key `animation`, docs/variants.md "Animation"): an animated GIF or WebP source
    /// within this budget keeps its frames in a `fit=inside` variant (animated WebP, or GIF); without the key, or
    /// above the budget, a variant is the first frame.
    public struct Animation: Sendable, Hashable {
        /// Most frames kept, 2–10,000. Default: 120.
        public var maxFrames: Int
        /// Most source pixels decoded for one variant: width × height × frames, 1–1,000,000,000. Default: 50,000,000.
        public var maxPixels: Int

        public static let defaultMaxFrames = 120
        public static let defaultMaxPixels = 50_000_000
        public static let maximumFrames = 10_000
        public static let maximumPixels = 1_000_000_000

        public init(maxFrames: Int = defaultMaxFrames, maxPixels: Int = defaultMaxPixels) {
            self.maxFrames = maxFrames
            self.maxPixels = maxPixels
        }
    }

    /// What a tier does with image metadata in the originals it serves and stores (policy key `metadata`).
    public enum MetadataPolicy: String, Sendable, Hashable, CaseIterable {
        /// Originals are served as the origin sent them. The default.
        case keep = "keep"
        /// Originals are served and stored without EXIF, XMP, IPTC, comments or text chunks, removed
        /// losslessly (the pixel data stays byte-identical; the EXIF `Orientation` is kept).
        case strip = "strip"
    }

    /// The query parameter names a variant request uses.
    public static let variantParameterNames = ["w", "h", "fit", "dpr", "q", "fmt", "gravity", "profile", "info"]
}
