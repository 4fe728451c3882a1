import MediaCore
/// The EXIF Orientation tag (0x0112, TIFF 6.0 §8 / EXIF 2.32 §4.6.4): read from a TIFF structure, and
/// written as the smallest TIFF structure that carries it.
enum ExifOrientation {
    /// The TIFF tag number of Orientation.
    static let tag = 0x0112
    /// `Exif\0\0`, which precedes the TIFF structure in a JPEG APP1 segment (and, wrongly, in some PNG
    /// eXIf and WebP EXIF chunks).
    static let jpegPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The Orientation in IFD0 of `tiff` (starting at its `II`/`MM` byte-order mark; a leading `Exif\0\0`
    /// is skipped), and the byte order, or `nil` when the structure is malformed or has no such tag.
    /// `orientation` is the value as stored, `nil` when it is outside 1…8. Every read is bounds-checked.
    static func read(_ tiff: ArraySlice<UInt8>) -> (orientation: Int?, littleEndian: Bool)? {
        var body = Array(tiff)
        if body.starts(with: jpegPrefix) { body.removeFirst(jpegPrefix.count) }
        let view = ByteReader(body)
        let littleEndian: Bool
        if view.matches("II", at: 0) { littleEndian = true } else if view.matches("MM", at: 0) { littleEndian = false } else { return nil }
        guard view.u16(2, littleEndian: littleEndian) == 42, let ifd = view.u32(4, littleEndian: littleEndian),
              let entries = view.u16(ifd, littleEndian: littleEndian) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = view.u16(entry, littleEndian: littleEndian),
                  let type = view.u16(entry + 2, littleEndian: littleEndian),
                  let count = view.u32(entry + 4, littleEndian: littleEndian),
                  let value = view.u16(entry + 8, littleEndian: littleEndian) else { return nil }
            if tag == ExifOrientation.tag {
                guard type == 3, count == 1 else { return (nil, littleEndian) }  // SHORT, one value
                return ((1...8).contains(value) ? value : nil, littleEndian)
            }
        }
        return nil
    }

    /// A 26-byte TIFF structure: header (`II*\0` or `MM\0*`, IFD0 at 8), IFD0 with the single entry
    /// Orientation (SHORT, count 1, `orientation`), next-IFD offset 0.
    static func minimalTIFF(orientation: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }
        func u32(_ value: Int) -> [UInt8] { littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF) }
        let order: [UInt8] = littleEndian ? Array("II".utf8) : Array("MM".utf8)
        return order + u16(42) + u32(8) + u16(1) + u16(tag) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    }
}
