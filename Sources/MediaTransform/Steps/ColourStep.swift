import CVips

/// Makes the image plain 8-bit sRGB (3 bands, or 4 with alpha):
/// 1. an embedded ICC profile is applied (`vips_icc_transform` to sRGB, relative colorimetric);
///    a corrupt profile is ignored (libvips falls back to sRGB; should the transform fail anyway,
///    the pixels are taken as they are); a CMYK source
///    was already converted by ``ScaleOnLoadStep``, whose CMYK profile is only left attached;
/// 2. anything still in another space (greyscale, 16-bit, Lab…) is converted with
///    `vips_colourspace`, and a non-uchar result cast to uchar.
/// The profile left attached (sRGB, or the one ignored) is removed by ``StripStep``. A source with
/// no profile is taken to be sRGB and its pixels are left untouched.
///
/// Replaces `context.image`. Throws `undecodable` when the image cannot be converted to sRGB.
struct ColourStep: TransformStep {
    var name: String { "colour" }

    func run(_ context: TransformContext) throws(TransformError) {
        var image = try context.currentImage(for: name)
        // An embedded standard sRGB profile is the identity transform: skipped (the profile goes in StripStep).
        if !context.sourceIsCMYK && image.has("icc-profile-data") && !Self.embedsSRGB(image) {
            let source = image
            if let managed = try? VipsImageHandle.make(.undecodable, "\(name): ICC profile", { out in
                mediactl_vips_icc_to_srgb(libvips, source.pointer, out)
            }).inMemory(.undecodable, "\(name): ICC profile") {
                image = managed
            }
        }
        if image.interpretation != VIPS_INTERPRETATION_sRGB {
            image = try VipsImageHandle.make(.undecodable, "\(name): to sRGB") { out in
                mediactl_vips_colourspace_srgb(libvips, image.pointer, out)
            }
        }
        if image.bandFormat != VIPS_FORMAT_UCHAR {
            image = try VipsImageHandle.make(.undecodable, "\(name): to 8 bits") { out in
                mediactl_vips_cast_uchar(libvips, image.pointer, out)
            }
        }
        context.image = image
    }

    /// Whether `image` carries one of the standard sRGB profiles (``ICCProfileDescription``).
    static func embedsSRGB(_ image: VipsImageHandle) -> Bool {
        var data: UnsafeRawPointer?
        var length = 0
        guard libvips.pointee.image_get_blob(image.pointer, "icc-profile-data", &data, &length) == 0, let data, length > 0,
              length <= 1 << 20 else { return false }
        return ICCProfileDescription.isSRGB(Array(UnsafeRawBufferPointer(start: data, count: length)))
    }
}
