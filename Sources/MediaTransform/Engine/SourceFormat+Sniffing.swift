import MediaCore

extension SourceFormat {
    /// How much of the source the sniffer reads: the magic numbers and an ISO BMFF `ftyp` box (whose brands are a few
    /// dozen bytes in practice) are well within it.
    static let sniffedBytes = 65_536

    /// The format the leading bytes announce, or `nil` for any other content: MediaCore's ``MediaCore/ImageSniffer``
    /// (the one the service validates with), narrowed to what this module decodes.
    ///
    /// - JPEG, PNG, GIF and WebP as the sniffer names them.
    /// - AVIF: the sniffer's AVIF (an `ftyp` box first whose major brand, or one of whose compatible brands, is
    ///   `avif` or `avis`) whose items are all AV1 images, derived images or metadata (``AVIFItems``). HEIC and HEIF
    ///   are `nil`, and so is an HEVC image under an `avif` brand.
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> SourceFormat? {
        switch ImageSniffer.sniff(Array(bytes.prefix(sniffedBytes))) {
        case ImageFormat.jpeg: return .jpeg
        case ImageFormat.png: return .png
        case ImageFormat.gif: return .gif
        case ImageFormat.webp: return .webp
        case ImageFormat.avif: return AVIFItems.areAV1(bytes) ? .avif : nil
        default: return nil
        }
    }
}
