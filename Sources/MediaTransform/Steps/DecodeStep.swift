/// Decodes the scaled image into memory (`vips_image_copy_memory`), so that every decoding failure
/// (truncation, corrupt entropy data) surfaces here as `undecodable` rather than later as an encode
/// failure, and the steps after it work on a small in-memory image. Then checks the decoded size
/// against `limits.maxOutputPixels` (each frame's, for an animation).
///
/// Replaces `context.image`. Throws `undecodable`, `over-pixel-limit`.
struct DecodeStep: TransformStep {
    var name: String { "decode" }

    func run(_ context: TransformContext) throws(TransformError) {
        let image = try context.currentImage(for: name).inMemory(.undecodable, name)
        context.image = image
        // A strip of frames is checked per frame (the animation budget bounded the frames).
        let height = context.animate ? image.pageHeight : image.height
        let (pixels, overflow) = image.width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= context.limits.maxOutputPixels else {
            throw TransformError(
                .overPixelLimit,
                "output \(image.width)×\(height) exceeds \(context.limits.maxOutputPixels) pixels")
        }
    }
}
