/// The pixel bounds one transform runs under (from the source's tier).
public struct TransformLimits: Sendable, Hashable {
    /// The largest source accepted, in decoded pixels of its first frame (width × height, from the
    /// header, before any pixel is decoded): the tier's `maxPixels`. Default: 50,000,000.
    public var maxSourcePixels: Int
    /// The largest output, in pixels (width × height). A box of only a width is clamped to this
    /// area (its height bound is `maxOutputPixels / width`); a `cover` box larger than it is
    /// refused. Default: 16,777,216 (4096 × 4096).
    public var maxOutputPixels: Int

    public init(maxSourcePixels: Int = 50_000_000, maxOutputPixels: Int = 16_777_216) {
        self.maxSourcePixels = maxSourcePixels
        self.maxOutputPixels = maxOutputPixels
    }
}
