/// Recognises an image format from magic numbers only; the declared `Content-Type` and the
/// file name never take part.
///
/// Recognised: JPEG `FF D8 FF`; PNG's 8-byte signature; `GIF87a`/`GIF89a`; WebP
/// `RIFF????WEBP`; ISO BMFF `ftyp` (at offset 4) whose major or compatible brands contain
/// `avif`/`avis` (AVIF), `heic`/`heix` (HEIC) or `mif1` (HEIF); JPEG XL's codestream `FF 0A` or its container
/// signature box. Everything else, SVG and HTML included, is `nil`.
public enum ImageSniffer {
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format whose magic number starts `bytes`, or `nil` when none matches.
    /// - Complexity: O(1) except for the `ftyp` brand list, O(brands).
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        let reader = ByteReader(bytes)
        if reader.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if reader.matches(pngSignature, at: 0) { return .png }
        if reader.matches(Array("GIF87a".utf8), at: 0) || reader.matches(Array("GIF89a".utf8), at: 0) { return .gif }
        if reader.matches(Array("RIFF".utf8), at: 0), reader.matches(Array("WEBP".utf8), at: 8) { return .webp }
        if reader.matches(Array("ftyp".utf8), at: 4) { return isobmffFormat(reader) }
        if reader.matches(jxlCodestreamSignature, at: 0) || reader.matches(jxlContainerSignature, at: 0) { return .jxl }
        return nil
    }

    /// A JPEG XL codestream's first two bytes (ISO/IEC 18181-1 §D.2).
    public static let jxlCodestreamSignature: [UInt8] = [0xFF, 0x0A]
    /// The JPEG XL container's signature box (ISO/IEC 18181-2 §3.1): size 12, type `JXL `, `0D 0A 87 0A`.
    public static let jxlContainerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// The HEIF-family format named by the `ftyp` box's brands, most specific first.
    public static func isobmffFormat(_ reader: ByteReader) -> ImageFormat? {
        guard let size = reader.uint32BE(at: 0), size >= 16 else { return nil }
        let end = min(Int(size), reader.count)
        var brands: [String] = []
        if let major = reader.fourCC(at: 8) { brands.append(major) }
        var offset = 16
        while offset + 4 <= end {
            if let brand = reader.fourCC(at: offset) { brands.append(brand) }
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        if brands.contains(where: { $0 == "heic" || $0 == "heix" }) { return .heic }
        if brands.contains("mif1") { return .heif }
        return nil
    }
}
