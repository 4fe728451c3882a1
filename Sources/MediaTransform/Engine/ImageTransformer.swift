/// The transform engine: variants derived from a source with libvips (the only Swift code that calls
/// it). Stateless and thread-safe: call it from any number of worker threads at once; each call
/// uses one thread (libvips' own concurrency is 1, ``VipsRuntime``).
public enum ImageTransformer {
    /// A variant of `source` (an encoded JPEG, PNG, WebP, GIF or AVIF) as `spec` asks.
    ///
    /// The source is refused before any pixel is decoded when it is not one of those formats (by its
    /// magic bytes and libvips' loader) or its header declares more than `limits.maxSourcePixels`;
    /// it is then decoded straight to the output size (JPEG shrink-on-load), upright (EXIF
    /// orientation applied), first frame only (every frame of an animation within `spec.animation`,
    /// ``AnimationStep``), never upscaled, in sRGB, with every metadata field
    /// removed.
    ///
    /// - Parameters:
    ///   - source: The encoded source image.
    ///   - spec: Width bound (pixels), optional height bound, `fit` (`inside` keeps the aspect ratio
    ///     inside the box; `cover` fills the box, cropped around the centre), quality 1–100 (clamped)
    ///     and the format rule.
    ///   - declared: The formats the tier declares, which `FormatChoice.source` and `.legacy`
    ///     choose among (an explicit `.format` is used as given).
    ///   - limits: The tier's pixel limits.
    ///   - deadline: When to give up (checked between steps), or `nil`.
    /// - Returns: The encoded variant with its format and size in pixels.
    /// - Throws: ``TransformError`` with code `unsupported-format`, `over-pixel-limit`,
    ///   `undecodable`, `encode-failed`, `deadline-exceeded` or `invalid-spec`.
    public static func derive(
        _ source: [UInt8], spec: VariantSpec, declared: [OutputFormat], limits: TransformLimits,
        deadline: ContinuousClock.Instant?
    ) throws(TransformError) -> DerivedImage {
        VipsRuntime.start()
        let result: Result<DerivedImage, TransformError> = source.withUnsafeBytes { bytes in
            let context = TransformContext(source: bytes, spec: spec, declared: declared, limits: limits)
            do throws(TransformError) {
                try TransformPipeline.standard.run(context, deadline: deadline)
                return .success(try output(of: context))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func output(of context: TransformContext) throws(TransformError) -> DerivedImage {
        guard let bytes = context.encoded, let format = context.outputFormat, let image = context.image,
              let header = context.header else {
            throw TransformError(.encodeFailed, "the pipeline ended without an encoded image")
        }
        if context.animate {
            return DerivedImage(bytes: bytes, format: format, width: image.width, height: image.pageHeight,
                                sourceHasAlpha: header.hasAlpha, frames: image.height / max(1, image.pageHeight))
        }
        return DerivedImage(
            bytes: bytes, format: format, width: image.width, height: image.height,
            sourceHasAlpha: header.hasAlpha, sourceFrames: header.pages)
    }
}
