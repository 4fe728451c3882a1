/// A variant written by ``ImageTransformer/derive(_:spec:declared:limits:deadline:)``.
public struct DerivedImage: Sendable, Hashable {
    /// The encoded image, every metadata field removed (no EXIF, XMP, IPTC, ICC profile or
    /// comments).
    public var bytes: [UInt8]
    /// The format `bytes` are in (the variant's `FormatChoice` resolved).
    public var format: OutputFormat
    /// Output width in pixels (upright: EXIF orientation applied).
    public var width: Int
    /// Output height in pixels.
    public var height: Int
    /// Whether the source had an alpha channel (JPEG output flattens it onto white).
    public var sourceHasAlpha: Bool
    /// The source's frames (`n-pages`): above 1, an animated source of which only the first frame was written.
    public var sourceFrames: Int = 1
    /// The frames written: above 1 for an animation (``width`` × ``height`` is then each frame's size).
    public var frames: Int = 1

    public init(bytes: [UInt8], format: OutputFormat, width: Int, height: Int, sourceHasAlpha: Bool, sourceFrames: Int = 1,
                frames: Int = 1) {
        self.sourceFrames = sourceFrames
        self.frames = frames
        self.bytes = bytes
        self.format = format
        self.width = width
        self.height = height
        self.sourceHasAlpha = sourceHasAlpha
    }
}
