/// Resolves the variant's `FormatChoice` into the output format, from the source's header and the
/// tier's declared formats:
/// - `.format(f)`: `f`.
/// - `.source`: the source's own format (a GIF's is PNG) when declared (and, for AVIF, writable),
///   else as `.legacy`.
/// - `.legacy`: PNG when the source has alpha and PNG is declared, else JPEG.
///
/// Sets `context.outputFormat`. Throws `unsupported-format` for AVIF when this libvips cannot write
/// it (``VipsRuntime/canSaveAVIF``).
struct FormatStep: TransformStep {
    var name: String { "format" }

    func run(_ context: TransformContext) throws(TransformError) {
        guard let header = context.header else {
            throw TransformError(.unsupportedFormat, "\(name): no source header")
        }
        let format = Self.resolve(context.spec.format, source: header, declared: context.declared,
                                  canSaveAVIF: VipsRuntime.canSaveAVIF)
        if format == .avif && !VipsRuntime.canSaveAVIF {
            throw TransformError(.unsupportedFormat, "this libvips cannot write AVIF")
        }
        context.outputFormat = format
    }

    static func resolve(_ choice: FormatChoice, source: ImageProbe, declared: [OutputFormat],
                        canSaveAVIF: Bool) -> OutputFormat {
        switch choice {
        case .format(let format):
            return format
        case .source:
            let own = source.format.outputFormat
            if declared.contains(own) && (own != .avif || canSaveAVIF) { return own }
            return legacy(source: source, declared: declared)
        case .legacy:
            return legacy(source: source, declared: declared)
        }
    }

    private static func legacy(source: ImageProbe, declared: [OutputFormat]) -> OutputFormat {
        source.hasAlpha && declared.contains(.png) ? .png : .jpeg
    }
}
