import MediaCore

/// Removes metadata blocks from a GIF (GIF89a specification §§17–27; XMP part 3 §1.1.2).
///
/// Blocks are walked from the header and logical screen descriptor (with its global colour table) to the
/// trailer `3B`, every extension and image walked through its data sub-blocks: Comment Extensions
/// (`21 FE`) and the XMP application extension (`21 FF`, identifier `XMP DataXMP`) are removed; image
/// descriptors, Graphic Control, Plain Text and every other application extension (`NETSCAPE2.0`,
/// `ICCRGBG1012`, …) are kept verbatim in order; bytes after the trailer are dropped.
///
/// Throws when the header is not `GIF87a`/`GIF89a`, a block or sub-block runs past the end, a block starts
/// with an unknown byte, or the file ends before the trailer.
enum GIFMetadataStripper {
    static func strip(_ bytes: [UInt8]) throws(MetadataStripError) -> StrippedImage {
        let view = ByteReader(bytes)
        guard view.matches("GIF87a", at: 0) || view.matches("GIF89a", at: 0), let screenFlags = view.u8(10) else {
            throw failure("the file does not start with GIF87a or GIF89a and a logical screen descriptor")
        }
        var position = 13 + colourTableSize(screenFlags)
        guard position <= bytes.count else { throw failure("the global colour table runs past the end of the file") }
        var out = Array(bytes[..<position])
        out.reserveCapacity(bytes.count)
        var removed: [String] = []
        while true {
            guard let introducer = view.u8(position) else {
                throw failure("the file ends at offset \(bytes.count), before the trailer (3B)")
            }
            let start = position
            switch introducer {
            case 0x3B:
                out.append(0x3B)
                if position + 1 < bytes.count { removed.append("trailing data") }
                return StrippedImage(bytes: out, removed: removed, orientation: nil)
            case 0x2C:
                guard let flags = view.u8(position + 9) else { throw truncated("image descriptor", start) }
                position += 10 + colourTableSize(flags) + 1  // descriptor, local colour table, LZW code size
                position = try subBlocksEnd(view, from: position, block: "image data", start: start)
                out += bytes[start..<position]
            case 0x21:
                guard let label = view.u8(position + 1) else { throw truncated("extension", start) }
                let isXMP = label == 0xFF && view.u8(position + 2) == 11 && view.matches("XMP DataXMP", at: position + 3)
                position = try subBlocksEnd(view, from: position + 2, block: "extension \(Hex.text(label))", start: start)
                if label == 0xFE {
                    removed.append("Comment")
                } else if isXMP {
                    removed.append("XMP")
                } else {
                    out += bytes[start..<position]
                }
            default:
                throw failure("unknown block \(Hex.text(introducer)) at offset \(position)")
            }
        }
    }

    /// Bytes of the colour table that `flags` (a descriptor's packed field) announces: 3 × 2^(n+1), or 0.
    private static func colourTableSize(_ flags: Int) -> Int { flags & 0x80 == 0 ? 0 : 3 << ((flags & 0x07) + 1) }

    /// The offset after the sub-blocks starting at `from` (each a length byte and that many bytes; a zero
    /// length ends them).
    private static func subBlocksEnd(_ view: ByteReader, from: Int, block: String, start: Int) throws(MetadataStripError) -> Int {
        var position = from
        while true {
            guard let length = view.u8(position) else { throw truncated(block, start) }
            position += 1
            if length == 0 { return position }
            guard view.range(position, length) != nil else { throw truncated(block, start) }
            position += length
        }
    }

    private static func truncated(_ block: String, _ start: Int) -> MetadataStripError {
        failure("the \(block) at offset \(start) runs past the end of the file")
    }

    static func failure(_ problem: String) -> MetadataStripError { MetadataStripError(detail: "GIF: " + problem) }
}
