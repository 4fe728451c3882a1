/// Decides whether the variant keeps the source's frames, and in which format (docs/variants.md "Animation"): an
/// animated source (more than one frame) within the tier's ``AnimationBudget``, on a `fit=inside` variant (libvips
/// crops a strip of frames as one image, so a `cover` crop is of the first frame), is written animated when the
/// resolved format can carry it here:
/// - WebP stays WebP; AVIF and JPEG XL (libvips 8.14 writes neither animated) become animated WebP when the tier
///   declares WebP;
/// - a GIF source asked for in its own format (no `fmt`), and the legacy format (`fmt=auto` from a client that
///   accepts none of WebP, AVIF and JPEG XL), become GIF; the legacy format of a client that also accepts WebP
///   (`.legacyOr(.webp)`) becomes animated WebP;
/// - an explicit `fmt=jpeg` or `fmt=png` (or a profile's) asks for a still: the first frame.
///
/// Sets `context.animate` and may replace `context.outputFormat`. Never throws.
struct AnimationStep: TransformStep {
    var name: String { "animation" }

    func run(_ context: TransformContext) throws(TransformError) {
        guard let budget = context.spec.frameBudget, let header = context.header, let resolved = context.outputFormat,
              budget.admits(width: header.width, height: header.height, frames: header.pages),
              let animated = Self.animatedFormat(context.spec.format, resolved: resolved, source: header.format,
                                                 declared: context.declared) else { return }
        context.outputFormat = animated
        context.animate = true
    }

    /// The animated format for a request's `choice` resolved to `resolved`, or `nil` for a still.
    static func animatedFormat(_ choice: FormatChoice, resolved: OutputFormat, source: SourceFormat,
                               declared: [OutputFormat]) -> OutputFormat? {
        switch choice {
        case .legacy:
            return .gif
        case .legacyOr(let format):
            return format == .webp ? .webp : .gif
        case .source:
            if source == .gif { return .gif }
            return resolved == .webp ? .webp : nil
        case .format(let format):
            switch format {
            case .webp: return .webp
            case .avif, .jxl: return declared.contains(.webp) ? .webp : nil
            case .jpeg, .png, .gif: return nil
            }
        }
    }
}
