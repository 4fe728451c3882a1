import CVips

/// Makes the image plain 8-bit sRGB (3 bands, or 4 with alpha): ``ScaleOnLoadStep`` already
/// converted a source that carried an ICC profile (its profile then describes sRGB, and
/// ``StripStep`` drops it); anything still in another space (greyscale, 16-bit, CMYK without a
/// profile, Lab…) is converted with `vips_colourspace`, and a non-uchar result cast to uchar.
///
/// Replaces `context.image`. Throws `undecodable` when the image cannot be converted.
struct ColourStep: TransformStep {
    var name: String { "colour" }

    func run(_ context: TransformContext) throws(TransformError) {
        var image = try context.currentImage(for: name)
        if image.interpretation != VIPS_INTERPRETATION_sRGB {
            image = try VipsImageHandle.make(.undecodable, "\(name): to sRGB") { out in
                mediactl_vips_colourspace_srgb(image.pointer, out)
            }
        }
        if image.bandFormat != VIPS_FORMAT_UCHAR {
            image = try VipsImageHandle.make(.undecodable, "\(name): to 8 bits") { out in
                mediactl_vips_cast_uchar(image.pointer, out)
            }
        }
        context.image = image
    }
}
