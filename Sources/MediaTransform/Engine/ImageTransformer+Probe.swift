extension ImageTransformer {
    /// The format, first-frame size, frame count, alpha and orientation of `bytes`, from their header
    /// alone (no pixel decoded), or `nil` when they are not a JPEG, PNG, WebP, GIF or AVIF that
    /// libvips can read the header of.
    public static func probe(_ bytes: [UInt8]) -> ImageProbe? {
        VipsRuntime.start()
        return bytes.withUnsafeBytes { raw -> ImageProbe? in
            guard let format = SourceFormat.sniff(raw) else { return nil }
            return try? HeaderReader.read(raw, as: format)
        }
    }
}
