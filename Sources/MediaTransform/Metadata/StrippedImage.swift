/// An image with its metadata removed losslessly (``MetadataStripper/strip(_:)``).
public struct StrippedImage: Sendable, Hashable {
    /// The file: the input's bytes with metadata segments, chunks or blocks left out (pixel data byte-identical).
    public var bytes: [UInt8]
    /// What was removed, in file order: JPEG `APP1 Exif`, `APP1 XMP`, `APP1 XMP extension`, `APP2 MPF`,
    /// `APP2 FlashPix`, `APPn` (n = 1…15, other identifiers), `APP12 Ducky`, `APP13 Photoshop`, `COM`;
    /// PNG chunk types (`tEXt`, `zTXt`, `iTXt`, `eXIf`, `tIME`); WebP `EXIF`, `XMP`; GIF `Comment`, `XMP`;
    /// and `trailing data` for bytes after the end of the image. A minimal orientation-only EXIF that the
    /// output carries again unchanged is not listed. Empty when nothing was removed.
    public var removed: [String]
    /// The EXIF Orientation (tag 0x0112) found, 1…8, or `nil` (none, or a value outside 1…8). When it is
    /// not 1, the output carries a minimal EXIF with only this tag (JPEG APP1, PNG eXIf, WebP EXIF with VP8X).
    public var orientation: Int?

    public init(bytes: [UInt8], removed: [String], orientation: Int?) {
        self.bytes = bytes
        self.removed = removed
        self.orientation = orientation
    }
}
