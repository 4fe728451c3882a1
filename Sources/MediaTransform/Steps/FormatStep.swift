/// Resolves the variant's `FormatChoice` into the output format, from the source's header and the
/// tier's declared formats:
/// - `.format(f)`: `f`.
/// - `.source`: the source's own format (a GIF's is PNG) when declared, else as `.legacy`; an AVIF source
///   gives WebP when declared, else `.legacy`: AVIF is only encoded when asked for (`fmt=avif`) or negotiated,
///   where `maxAVIFWidth` and the AVIF pool bound its cost.
/// - `.legacy`: PNG when the source has alpha and PNG is declared, else JPEG when declared, else PNG when
///   declared, else the first declared format (a tier declaring only `webp` never gets JPEG).
/// - `.legacyOr(f)`: `f` when the source has alpha, else as `.legacy`.
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
        if format == .jxl && !VipsRuntime.canSaveJXL {
            throw TransformError(.unsupportedFormat, "this libvips cannot write JPEG XL")
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
            if own == .avif { return declared.contains(.webp) ? .webp : legacy(source: source, declared: declared) }
            if declared.contains(own) { return own }
            return legacy(source: source, declared: declared)
        case .legacy:
            return legacy(source: source, declared: declared)
        case .legacyOr(let format):
            return source.hasAlpha ? format : legacy(source: source, declared: declared)
        }
    }

    private static func legacy(source: ImageProbe, declared: [OutputFormat]) -> OutputFormat {
        if source.hasAlpha && declared.contains(.png) { return .png }
        if declared.isEmpty || declared.contains(.jpeg) { return .jpeg }
        if declared.contains(.png) { return .png }
        return declared.first(where: { $0 != .avif && $0 != .jxl }) ?? declared.first ?? .jpeg
    }
}
