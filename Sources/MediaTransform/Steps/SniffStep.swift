/// Names the source's format from its magic bytes (``SourceFormat/sniff(_:)``), before any libvips
/// loader sees it: SVG, PDF, TIFF, HEIC, HTML, empty input… are refused here, so libvips never
/// chooses a loader from the input.
///
/// Sets `context.sourceFormat`. Throws `unsupported-format`.
struct SniffStep: TransformStep {
    var name: String { "sniff" }

    func run(_ context: TransformContext) throws(TransformError) {
        guard let format = SourceFormat.sniff(context.source) else {
            throw TransformError(.unsupportedFormat, "not JPEG, PNG, WebP, GIF or AVIF (\(context.source.count) bytes)")
        }
        context.sourceFormat = format
    }
}
