import CVips

extension ImageTransformer {
    /// The steps ``info(_:limits:deadline:)`` runs: refuse what is not a supported format or is too large before
    /// anything is decoded, then decode straight into a ``ThumbHash/maxSide`` box (shrink-on-load, upright, first
    /// frame, never enlarged) and make it plain 8-bit sRGB.
    static let infoPipeline = TransformPipeline(steps: [
        SniffStep(),
        SourceLimitStep(),
        ScaleOnLoadStep(),
        DecodeStep(),
        ColourStep(),
    ])

    /// What `?info=1` answers about `source` (``SourceInfo``): the header's size (upright), format, alpha and frames,
    /// and the dominant colour and ThumbHash of its thumbnail, decoded into a 100 × 100 box.
    /// - Throws: ``TransformError`` with code `unsupported-format`, `over-pixel-limit`, `undecodable` or
    ///   `deadline-exceeded`, as ``derive(_:spec:declared:limits:deadline:)``.
    public static func info(_ source: [UInt8], limits: TransformLimits,
                            deadline: ContinuousClock.Instant?) throws(TransformError) -> SourceInfo {
        VipsRuntime.start()
        let result: Result<SourceInfo, TransformError> = source.withUnsafeBytes { bytes in
            let context = TransformContext(source: bytes, spec: .info, declared: [], limits: limits)
            do throws(TransformError) {
                try infoPipeline.run(context, deadline: deadline)
                guard let header = context.header, let format = context.sourceFormat else {
                    throw TransformError(.undecodable, "info: the pipeline ended without a header")
                }
                let pixels = try rgba(context.currentImage(for: "info"))
                guard let hash = ThumbHash.encode(width: pixels.width, height: pixels.height, rgba: pixels.bytes) else {
                    throw TransformError(.undecodable, "info: a \(pixels.width)×\(pixels.height) thumbnail")
                }
                let upright = header.orientation >= 5
                return .success(SourceInfo(
                    width: upright ? header.height : header.width, height: upright ? header.width : header.height,
                    format: format, hasAlpha: header.hasAlpha, frames: header.pages,
                    dominantColour: DominantColour(of: pixels), thumbHash: hash, thumbnail: pixels))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The pixels of `image` (8-bit sRGB, 3 or 4 bands, as ``ColourStep`` leaves it) as RGBA, opaque when it has no
    /// alpha band.
    static func rgba(_ image: VipsImageHandle) throws(TransformError) -> RGBAPixels {
        let bands = image.bands
        guard bands == 3 || bands == 4, image.bandFormat == VIPS_FORMAT_UCHAR else {
            throw TransformError(.undecodable, "info: \(bands) bands after the sRGB conversion")
        }
        var length = 0
        guard let memory = libvips.pointee.image_write_to_memory(image.pointer, &length) else {
            throw TransformError.vips(.undecodable, "info: pixels")
        }
        defer { libvips.pointee.g_free(memory) }
        let count = image.width * image.height
        guard length == count * bands else {
            throw TransformError(.undecodable, "info: \(length) bytes of pixels for \(image.width)×\(image.height)")
        }
        let source = UnsafeRawBufferPointer(start: memory, count: length)
        if bands == 4 { return RGBAPixels(width: image.width, height: image.height, bytes: Array(source)) }
        var bytes = [UInt8](repeating: 255, count: count * 4)
        for i in 0..<count {
            bytes[i * 4] = source[i * 3]
            bytes[i * 4 + 1] = source[i * 3 + 1]
            bytes[i * 4 + 2] = source[i * 3 + 2]
        }
        return RGBAPixels(width: image.width, height: image.height, bytes: bytes)
    }
}
