/// The state one transform's steps share, filled in as they run (imgproxy's pipeline context).
/// Lives for one ``ImageTransformer/derive(_:spec:declared:limits:deadline:)`` call on one thread;
/// `source` points into the caller's array for that call only.
final class TransformContext {
    /// The encoded source, as received.
    let source: UnsafeRawBufferPointer
    let spec: VariantSpec
    /// The formats the tier declares (`variants.formats`).
    let declared: [OutputFormat]
    let limits: TransformLimits

    /// The source's header (``SniffStep`` sets the format, ``SourceLimitStep`` the rest).
    var sourceFormat: SourceFormat?
    var header: ImageProbe?
    /// Whether the source is CMYK (which ``ScaleOnLoadStep`` converts to sRGB itself, leaving the
    /// CMYK profile attached) (``SourceLimitStep``).
    var sourceIsCMYK = false
    /// The format the output is written in (``FormatStep``, ``AnimationStep``).
    var outputFormat: OutputFormat?
    /// Whether every frame is kept (``AnimationStep``): decoded as one strip of pages (`page-height`), written
    /// animated.
    var animate = false
    /// The current image: scaled (``ScaleOnLoadStep``), then decoded into memory and converted by
    /// the steps after it. Replacing it releases the one before.
    var image: VipsImageHandle?
    /// The encoded output (``EncodeStep``).
    var encoded: [UInt8]?

    init(source: UnsafeRawBufferPointer, spec: VariantSpec, declared: [OutputFormat], limits: TransformLimits) {
        self.source = source
        self.spec = spec
        self.declared = declared
        self.limits = limits
    }

    /// The current image.
    /// - Throws: `encode-failed` when a step runs before any step made one (a pipeline out of order).
    func currentImage(for step: String) throws(TransformError) -> VipsImageHandle {
        guard let image else { throw TransformError(.encodeFailed, "\(step): no image yet") }
        return image
    }
}
