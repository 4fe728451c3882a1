/// The box `vips_thumbnail` scales into, from a variant's size and the output pixel limit.
struct ThumbnailBox: Sendable, Hashable {
    /// libvips' largest coordinate (`VIPS_MAX_COORD`).
    static let maxCoordinate = 10_000_000

    /// Box width in pixels.
    var width: Int
    /// Box height in pixels.
    var height: Int
    /// Whether the image fills the box and is cropped around its centre (`cover`), rather than
    /// fitted inside it.
    var crop: Bool
    /// Where the crop is taken (`cover` only).
    var gravity: Gravity = .centre

    /// - `inside`: `width` × (the spec's height, or unbounded), its height bound clamped to
    ///   `maxOutputPixels / width` so the output never exceeds the limit whatever the aspect ratio.
    /// - `cover`: exactly `width` × `height` (or smaller when the source is: no upscaling).
    ///
    /// - Throws: `invalid-spec` for a width or height below 1; `over-pixel-limit` when a `cover` box,
    ///   or a single row of `width` pixels, exceeds `limits.maxOutputPixels`, or a side exceeds
    ///   10,000,000.
    init(spec: VariantSpec, limits: TransformLimits) throws(TransformError) {
        guard spec.width >= 1, (spec.height ?? 1) >= 1 else {
            throw TransformError(.invalidSpec, "w=\(spec.width) h=\(spec.height.map(String.init) ?? "-")")
        }
        guard spec.width <= Self.maxCoordinate, (spec.height ?? 0) <= Self.maxCoordinate else {
            throw TransformError(.overPixelLimit, "a side exceeds \(Self.maxCoordinate) pixels")
        }
        let areaLimit = max(0, limits.maxOutputPixels)
        if spec.fit == .cover, let height = spec.height {
            guard spec.width * height <= areaLimit else {
                throw TransformError(.overPixelLimit, "cover box \(spec.width)×\(height) exceeds \(areaLimit) pixels")
            }
            self.init(width: spec.width, height: height, crop: true)
            gravity = spec.gravity
        } else {
            let heightBound = min(spec.height ?? Self.maxCoordinate, areaLimit / spec.width, Self.maxCoordinate)
            guard heightBound >= 1 else {
                throw TransformError(.overPixelLimit, "width \(spec.width) exceeds \(areaLimit) pixels")
            }
            self.init(width: spec.width, height: heightBound, crop: false)
        }
    }

    init(width: Int, height: Int, crop: Bool) {
        self.width = width
        self.height = height
        self.crop = crop
    }
}
