import MediaCore

/// Removes privacy-relevant metadata (EXIF with GPS, serial numbers and capture times; XMP; IPTC;
/// comments; text chunks) from an image without re-encoding it: only container segments, chunks or
/// blocks are left out, and the compressed pixel data stays byte-identical.
///
/// The format is recognised by its first bytes, never by name or `Content-Type`:
/// - JPEG (`FF D8`): ``JPEGMetadataStripper`` (APP1, APP3–APP13, APP15, COM, non-ICC APP2, non-Adobe
///   APP14 removed; APP0, ICC_PROFILE, Adobe kept);
/// - PNG (signature): ``PNGMetadataStripper`` (tEXt, zTXt, iTXt, eXIf, tIME removed);
/// - WebP (`RIFF….WEBP`): ``WebPMetadataStripper`` (EXIF, XMP removed, VP8X flags fixed);
/// - GIF (`GIF87a`, `GIF89a`): ``GIFMetadataStripper`` (Comment and XMP extensions removed);
/// - AVIF/HEIF (`….ftyp`): ``ISOBMFFMetadataInspector`` (never rewritten: refused when it carries Exif
///   or XMP/MIME items, else returned unchanged).
///
/// A non-1 EXIF Orientation is kept, alone, in a minimal EXIF (JPEG, PNG, WebP with VP8X), so that viewers
/// still rotate the picture; ``StrippedImage/orientation`` reports it either way. Stripping is idempotent.
/// Every read is bounds-checked: any input either throws or returns, in time linear in its size.
public enum MetadataStripper {
    /// - Parameter bytes: a whole image file.
    /// - Returns: the file without its metadata, what was removed and the orientation found.
    /// - Throws: ``MetadataStripError`` (`metadata-not-strippable`) for an empty, unrecognised or malformed
    ///   file (truncated, bad lengths, bad PNG CRC), and for an AVIF/HEIF with metadata items.
    public static func strip(_ bytes: [UInt8]) throws(MetadataStripError) -> StrippedImage {
        let view = ByteReader(bytes)
        if bytes.isEmpty { throw MetadataStripError(detail: "the file is empty") }
        if view.u16(0) == 0xFFD8 { return try JPEGMetadataStripper.strip(bytes) }
        if bytes.starts(with: PNGMetadataStripper.signature) { return try PNGMetadataStripper.strip(bytes) }
        if view.matches("RIFF", at: 0) && view.matches("WEBP", at: 8) { return try WebPMetadataStripper.strip(bytes) }
        if view.matches("GIF8", at: 0) { return try GIFMetadataStripper.strip(bytes) }
        if view.matches("ftyp", at: 4) { return try ISOBMFFMetadataInspector.inspect(bytes) }
        throw MetadataStripError(detail: "not a JPEG, PNG, WebP, GIF, AVIF or HEIF file (it starts with \(Hex.bytes(bytes)))")
    }
}
