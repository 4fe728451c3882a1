import CVips

/// Removes every metadata field from the image: EXIF (`exif-data` and every `exif-*` field, GPS
/// included), XMP, IPTC, the ICC profile, orientation, PNG comments, GIF palette and animation
/// fields, resolution units… Everything `vips_image_get_fields` lists that is not a built-in field.
/// Savers are also asked to strip, but not every one does (libvips 8.14.1's webpsave writes EXIF,
/// XMP and ICC chunks whatever its `strip` says), so this step is what makes the output clean.
///
/// An animation keeps only ``animationFields``: the frames' delays, the loop count and the page height.
///
/// Replaces `context.image` with a copy (the pixels are shared). Throws `encode-failed`.
struct StripStep: TransformStep {
    var name: String { "strip" }

    /// The fields every image has (`VipsImage` properties, not metadata): not removable.
    static let builtInFields: Set<String> = [
        "width", "height", "bands", "format", "coding", "interpretation",
        "xoffset", "yoffset", "xres", "yres", "filename", "mode", "kill", "demand",
        "sizeof-image", "foreign-buffer",
    ]

    /// What an animation keeps (timing and the strip's page height, nothing about the source or its maker).
    static let animationFields: Set<String> = ["page-height", "delay", "loop"]

    func run(_ context: TransformContext) throws(TransformError) {
        let image = try context.currentImage(for: name)
        let copy = try VipsImageHandle.make(.encodeFailed, name) { out in
            mediactl_vips_copy(libvips, image.pointer, out)
        }
        for field in Self.metadataFields(of: copy) where !(context.animate && Self.animationFields.contains(field)) {
            libvips.pointee.image_remove(copy.pointer, field)
        }
        context.image = copy
    }

    /// The image's metadata fields (every field but the built-in ones).
    static func metadataFields(of image: VipsImageHandle) -> [String] {
        image.fieldNames.filter { !builtInFields.contains($0) }
    }
}
