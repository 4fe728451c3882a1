import CVips

/// Composites an alpha channel onto white when the output format has none (JPEG); other formats
/// keep alpha.
///
/// Replaces `context.image` (only when it flattens). Throws `encode-failed`.
struct FlattenStep: TransformStep {
    var name: String { "flatten" }

    /// The background alpha is composited onto, per band (uchar): white.
    static let background = 255.0

    func run(_ context: TransformContext) throws(TransformError) {
        let image = try context.currentImage(for: name)
        guard context.outputFormat == .jpeg, image.hasAlpha else { return }
        context.image = try VipsImageHandle.make(.encodeFailed, name) { out in
            mediactl_vips_flatten(libvips, image.pointer, out, Self.background)
        }
    }
}
