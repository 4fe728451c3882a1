/// WebP's RIFF container, edited without re-encoding: libvips 8.14.1's webpsave ignores `strip`
/// (its own `strip` member is never set; fixed in 8.14.2) and always writes an EXIF chunk, which it
/// rebuilds from the image even when the image has no EXIF (orientation, resolution, pixel
/// dimensions), so ``EncodeStep`` removes the metadata chunks from what it wrote.
enum WebPContainer {
    /// Chunks that carry metadata: EXIF, XMP, ICC profile.
    static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// `VP8X` flag bits announcing those chunks (ICC 0x20, EXIF 0x08, XMP 0x04).
    static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    /// `webp` without its EXIF, XMP and ICCP chunks, their `VP8X` flags cleared and the RIFF size
    /// fixed; every other chunk (VP8, VP8L, ALPH, ANIM…) byte for byte. `nil` when `webp` is not a
    /// well-formed RIFF WebP (a chunk running past the end).
    static func removingMetadata(_ webp: [UInt8]) -> [UInt8]? {
        guard webp.count >= 12, webp[0..<4].elementsEqual("RIFF".utf8), webp[8..<12].elementsEqual("WEBP".utf8)
        else { return nil }
        var out = Array(webp[0..<12])
        var offset = 12
        while offset < webp.count {
            guard offset + 8 <= webp.count else { return nil }
            let type = String(decoding: webp[offset..<offset + 4], as: UTF8.self)
            let size = webp[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + size + (size & 1)
            guard offset + 8 + size <= webp.count else { return nil }
            if !metadataChunks.contains(type) {
                let start = out.count
                out += webp[offset..<min(end, webp.count)]
                if end > webp.count { out.append(0) }  // a last odd chunk missing its pad byte
                if type == "VP8X" && size >= 1 { out[start + 8] &= ~metadataFlags }
            }
            offset = end
        }
        let riffSize = UInt32(out.count - 8)
        out.replaceSubrange(4..<8, with: (0..<4).map { UInt8((riffSize >> (8 * UInt32($0))) & 0xFF) })
        return out
    }
}
