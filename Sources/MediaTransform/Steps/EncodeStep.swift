import CVips

/// Writes the image in the output format, each saver also asked to strip metadata:
/// - JPEG: `Q` = quality, optimised Huffman tables, baseline (not progressive).
/// - WebP: lossy, `Q` = quality (animated when the image is a strip of pages); then its EXIF, XMP and ICC chunks removed (``WebPContainer``:
///   libvips 8.14.1's webpsave writes them whatever `strip` says).
/// - AVIF: heifsave with AV1, `Q` = quality, effort ``VariantSpec/avifEffort``.
/// - PNG: zlib compression ``pngCompression``, not interlaced, not palettised (quality unused).
/// - GIF (animations only, ``AnimationStep``): cgif, palettised by libimagequant (quality unused).
/// - JPEG XL: lossy, `Q` = quality, effort ``jxlEffort``; a bare codestream (no container, so no metadata boxes).
///
/// Sets `context.encoded`. Throws `encode-failed`.
struct EncodeStep: TransformStep {
    var name: String { "encode" }

    /// JPEG XL encoder effort, 3 (fastest) to 9. Default: 4 (as imgproxy's; 7, libjxl's default, takes about 4× the
    /// time and 1.5× the memory for 3 % fewer bytes at 1152×1152).
    static let jxlEffort = 4
    /// PNG zlib compression level 0–9. Default: 6.
    static let pngCompression = 6

    func run(_ context: TransformContext) throws(TransformError) {
        let image = try context.currentImage(for: name)
        guard let format = context.outputFormat else {
            throw TransformError(.encodeFailed, "\(name): no output format")
        }
        let quality = Int32(min(100, max(1, context.spec.quality(for: format))))
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        defer { libvips.pointee.g_free(buffer) }
        let result: Int32 = switch format {
        case .jpeg: mediactl_vips_jpegsave_buffer(libvips, image.pointer, &buffer, &length, quality)
        case .webp: mediactl_vips_webpsave_buffer(libvips, image.pointer, &buffer, &length, quality)
        case .avif: mediactl_vips_avifsave_buffer(libvips, image.pointer, &buffer, &length, quality,
                                                  Int32(min(9, max(0, context.spec.avifEffort))))
        case .png: mediactl_vips_pngsave_buffer(libvips, image.pointer, &buffer, &length, Int32(Self.pngCompression))
        case .jxl: mediactl_vips_jxlsave_buffer(libvips, image.pointer, &buffer, &length, quality, Int32(Self.jxlEffort))
        case .gif: mediactl_vips_gifsave_buffer(libvips, image.pointer, &buffer, &length)
        }
        guard result == 0, let buffer, length > 0 else {
            throw TransformError.vips(.encodeFailed, "\(name) \(format.rawValue)")
        }
        let encoded = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        if format == .webp {
            guard let stripped = WebPContainer.removingMetadata(encoded) else {
                throw TransformError(.encodeFailed, "\(name) webp: webpsave wrote a malformed RIFF container")
            }
            context.encoded = stripped
        } else {
            context.encoded = encoded
        }
    }
}
