import CVips

/// Reads the source's header (no pixels decoded, ``HeaderReader``) and refuses a source whose first
/// frame declares more than `limits.maxSourcePixels` pixels: a decompression bomb is refused on
/// its claimed size, whatever its bytes hold.
///
/// Sets `context.header` and `context.sourceIsCMYK`. Throws `unsupported-format` (libvips would
/// pick another loader, or calls the AVIF's compression something else than AV1), `undecodable`
/// (the header does not parse), `over-pixel-limit`.
struct SourceLimitStep: TransformStep {
    var name: String { "source-limit" }

    func run(_ context: TransformContext) throws(TransformError) {
        guard let format = context.sourceFormat else {
            throw TransformError(.unsupportedFormat, "\(name): no sniffed format")
        }
        let image = try HeaderReader.open(context.source, as: format)
        let header = HeaderReader.probe(of: image, as: format)
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, pixels <= context.limits.maxSourcePixels else {
            throw TransformError(
                .overPixelLimit,
                "source \(header.width)×\(header.height) exceeds \(context.limits.maxSourcePixels) pixels")
        }
        context.header = header
        context.sourceIsCMYK = image.interpretation == VIPS_INTERPRETATION_CMYK
    }
}
