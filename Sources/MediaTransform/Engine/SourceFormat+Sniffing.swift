extension SourceFormat {
    /// The format the leading bytes announce, or `nil` for any other content.
    ///
    /// - JPEG: `FF D8 FF`.
    /// - PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`.
    /// - GIF: `GIF87a` or `GIF89a`.
    /// - WebP: `RIFF`, 4 size bytes, `WEBP`.
    /// - AVIF: an ISO BMFF `ftyp` box first whose major brand, or one of whose compatible brands, is
    ///   `avif` or `avis`, and whose items are all AV1 images, derived images or metadata
    ///   (``AVIFItems``). HEIC (`heic`, `heix`, `mif1` alone…) is `nil`, and so is an HEVC image
    ///   under an `avif` brand.
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> SourceFormat? {
        func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + prefix.count else { return false }
            return prefix.indices.allSatisfy { bytes[offset + $0] == prefix[$0] }
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        if isAVIF(bytes) { return .avif }
        return nil
    }

    private static func isAVIF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 16,
              bytes[4] == UInt8(ascii: "f"), bytes[5] == UInt8(ascii: "t"),
              bytes[6] == UInt8(ascii: "y"), bytes[7] == UInt8(ascii: "p") else { return false }
        let boxSize = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard boxSize >= 16, boxSize <= bytes.count else { return false }
        // major brand at 8, minor version at 12, compatible brands from 16 to the end of the box
        let brandOffsets = [8] + Array(stride(from: 16, to: boxSize - 3, by: 4))
        let branded = brandOffsets.contains { offset in
            let brand = bytes[offset..<offset + 4]
            return brand.elementsEqual("avif".utf8) || brand.elementsEqual("avis".utf8)
        }
        return branded && AVIFItems.areAV1(bytes)
    }
}
