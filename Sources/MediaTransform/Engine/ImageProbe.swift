/// What a source's header says, read without decoding pixels
/// (``ImageTransformer/probe(_:)``).
public struct ImageProbe: Sendable, Hashable {
    /// The format (sniffed from the bytes, confirmed by libvips' loader).
    public var format: SourceFormat
    /// Width in pixels of the first frame, as stored (before EXIF orientation).
    public var width: Int
    /// Height in pixels of the first frame, as stored.
    public var height: Int
    /// Frames or pages (`n-pages`): 1 for a still image, more for an animated GIF or WebP.
    public var pages: Int
    /// Whether the image has an alpha channel.
    public var hasAlpha: Bool
    /// EXIF orientation 1–8 (1 when absent); 5–8 mean width and height swap when shown upright.
    public var orientation: Int

    public init(format: SourceFormat, width: Int, height: Int, pages: Int, hasAlpha: Bool, orientation: Int = 1) {
        self.format = format
        self.width = width
        self.height = height
        self.pages = pages
        self.hasAlpha = hasAlpha
        self.orientation = orientation
    }
}
