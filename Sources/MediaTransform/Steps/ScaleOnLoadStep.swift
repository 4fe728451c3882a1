import CVips

/// `vips_thumbnail_buffer` into the variant's box (``ThumbnailBox``): the loader shrinks while it
/// decodes (JPEG DCT scaling, WebP scaled decode), never upscales, applies EXIF orientation, takes
/// the first frame or page only, refuses truncated or corrupt data (`fail_on=error`, at decode), and
/// converts CMYK to sRGB (other embedded profiles are ``ColourStep``'s). `cover` crops around the
/// centre, or where `gravity` says (libvips' `attention` or `entropy` smart crop). With `context.animate`, every
/// frame is loaded, as a strip of pages each scaled into the box (`page-height`).
/// The image made is lazy: its pixels are decoded by ``DecodeStep``.
///
/// Replaces `context.image`. Throws `invalid-spec`, `over-pixel-limit` (the box) or `undecodable`.
struct ScaleOnLoadStep: TransformStep {
    var name: String { "scale-on-load" }

    /// libvips' crop mode for `gravity`.
    static func interesting(_ gravity: Gravity) -> VipsInteresting {
        switch gravity {
        case .centre: VIPS_INTERESTING_CENTRE
        case .attention: VIPS_INTERESTING_ATTENTION
        case .entropy: VIPS_INTERESTING_ENTROPY
        }
    }

    func run(_ context: TransformContext) throws(TransformError) {
        let box = try ThumbnailBox(spec: context.spec, limits: context.limits)
        guard let base = context.source.baseAddress else {
            throw TransformError(.unsupportedFormat, "\(name): no bytes")
        }
        let count = context.source.count
        context.image = try VipsImageHandle.make(.undecodable, name) { out in
            mediactl_vips_thumbnail_buffer(libvips, 
                base, count, out, Int32(box.width), Int32(box.height),
                box.crop ? Self.interesting(box.gravity) : VIPS_INTERESTING_NONE, context.animate ? 1 : 0)
        }
    }
}
