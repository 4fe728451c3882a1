import MediaCore
/// One box of an ISO base media file (ISO/IEC 14496-12 §4.2): its type, where it lies and where its
/// content starts.
struct ISOBMFFBox: Sendable, Hashable {
    /// The four-character type (`ftyp`, `meta`, `iinf`, `infe`).
    var type: String
    /// The whole box, header included.
    var range: Range<Int>
    /// The first byte after the header (size, type, any largesize and `uuid` user type).
    var contentStart: Int

    /// The boxes that fill `range` of `view`, in order: a size of 1 takes the 64-bit largesize, 0 means
    /// "to the end of `range`". Throws (as `format`) when a box is shorter than its header or runs past `range`.
    static func boxes(in view: ByteReader, _ range: Range<Int>, format: String) throws(MetadataStripError) -> [ISOBMFFBox] {
        var boxes: [ISOBMFFBox] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let available = range.upperBound - position
            guard available >= 8, let size32 = view.u32(position) else {
                throw MetadataStripError(detail: "\(format): \(available) bytes at offset \(position) are too few for a box header")
            }
            let type = view.text(position + 4, 4)
            var header = 8
            var size = size32
            if size32 == 1 {
                guard available >= 16, let large = view.u64(position + 8) else {
                    throw MetadataStripError(detail: "\(format): box '\(type)' at offset \(position) has an unreadable 64-bit size")
                }
                size = large
                header = 16
            } else if size32 == 0 {
                size = available
            }
            if type == "uuid" { header += 16 }
            guard size >= header, size <= available else {
                throw MetadataStripError(detail: "\(format): box '\(type)' at offset \(position) is \(size) bytes long, outside its container (\(header)…\(available) bytes)")
            }
            boxes.append(ISOBMFFBox(type: type, range: position..<(position + size), contentStart: position + header))
            position += size
        }
        return boxes
    }
}
