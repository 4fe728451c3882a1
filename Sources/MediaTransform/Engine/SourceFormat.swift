/// A format ``ImageTransformer`` decodes. Anything else (SVG, PDF, TIFF, HEIC, BMP, HTML…) is
/// refused before a loader sees it.
public enum SourceFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case jpeg, png, webp, gif, avif

    /// The output format of the same name, for `FormatChoice.source`; a GIF source is written as
    /// PNG (first frame only).
    public var outputFormat: OutputFormat {
        switch self {
        case .jpeg: .jpeg
        case .png, .gif: .png
        case .webp: .webp
        case .avif: .avif
        }
    }

    /// The libvips loader classes allowed for this format (as `vips_foreign_find_load_buffer` names
    /// them; always a `*_buffer` loader, reading from memory). PNG's is libspng's where libvips is
    /// built with it, else libpng's.
    var loaderClassNames: Set<String> {
        switch self {
        case .jpeg: ["VipsForeignLoadJpegBuffer"]
        case .png: ["VipsForeignLoadPngBuffer", "VipsForeignLoadSpngBuffer"]
        case .webp: ["VipsForeignLoadWebpBuffer"]
        case .gif: ["VipsForeignLoadNsgifBuffer"]
        case .avif: ["VipsForeignLoadHeifBuffer"]
        }
    }
}
