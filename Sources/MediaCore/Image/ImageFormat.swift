/// An image format recognised by its magic numbers (see ``ImageSniffer``).
///
/// An open set: a struct with static members, compared by ``name``.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// Stable short name: `jpeg`, `png`, `gif`, `webp`, `avif`, `heic`, `heif`, `jxl`.
    public let name: String
    /// The MIME type to serve as `Content-Type`, e.g. `image/jpeg`.
    public let mimeType: String

    public init(name: String, mimeType: String) {
        self.name = name
        self.mimeType = mimeType
    }

    /// JPEG (JFIF/Exif): `FF D8 FF`.
    public static let jpeg = ImageFormat(name: "jpeg", mimeType: "image/jpeg")
    /// PNG: `89 50 4E 47 0D 0A 1A 0A`.
    public static let png = ImageFormat(name: "png", mimeType: "image/png")
    /// GIF: `GIF87a` or `GIF89a`.
    public static let gif = ImageFormat(name: "gif", mimeType: "image/gif")
    /// WebP: `RIFF` size `WEBP`.
    public static let webp = ImageFormat(name: "webp", mimeType: "image/webp")
    /// AVIF: ISO BMFF `ftyp` with brand `avif` or `avis`.
    public static let avif = ImageFormat(name: "avif", mimeType: "image/avif")
    /// HEIC: ISO BMFF `ftyp` with brand `heic` or `heix`.
    public static let heic = ImageFormat(name: "heic", mimeType: "image/heic")
    /// HEIF: ISO BMFF `ftyp` with brand `mif1` and no more specific brand.
    public static let heif = ImageFormat(name: "heif", mimeType: "image/heif")

    /// JPEG XL (ISO/IEC 18181): a bare codestream `FF 0A`, or the container's signature box
    /// `00 00 00 0C 4A 58 4C 20 0D 0A 87 0A`.
    public static let jxl = ImageFormat(name: "jxl", mimeType: "image/jxl")

    public var description: String { name }
}
