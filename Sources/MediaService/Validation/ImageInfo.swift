import MediaCore

/// What ``ImageValidator`` learned from an accepted body, before anything was decoded.
public struct ImageInfo: Hashable, Sendable {
    /// The sniffed format; its ``ImageFormat/mimeType`` is the served `Content-Type`.
    public let format: ImageFormat
    /// Width in pixels, from the format's header. Always > 0.
    public let width: Int
    /// Height in pixels, from the format's header. Always > 0.
    public let height: Int
    /// Body length in bytes.
    public let byteCount: Int

    /// `width × height`.
    public var pixelCount: Int { width * height }
}
