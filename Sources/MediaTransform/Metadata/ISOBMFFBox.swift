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

    /// The boxes that fill `range` of `view`, in order (``MediaCore/ISOBMFFSyntax``): a size of 1 takes the 64-bit
    /// largesize, 0 means "to the end of `range`", a `uuid` box's user type is part of its header. Throws (as
    /// `format`) when a box is shorter than its header or runs past `range`.
    static func boxes(in view: ByteReader, _ range: Range<Int>, format: String) throws(MetadataStripError) -> [ISOBMFFBox] {
        var boxes: [ISOBMFFBox] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let type = view.text(position + 4, 4)
            switch ISOBMFFSyntax.box(view, at: position, within: range.upperBound, countsUserType: true) {
            case .partialHeader(let available):
                throw MetadataStripError(detail: "\(format): \(available) bytes at offset \(position) are too few for a box header")
            case .badLargeSize:
                throw MetadataStripError(detail: "\(format): box '\(type)' at offset \(position) has an unreadable 64-bit size")
            case .tooShort(let size, let header), .pastEnd(let size, let header):
                throw MetadataStripError(detail: "\(format): box '\(type)' at offset \(position) is \(size) bytes long, outside its container (\(header)…\(range.upperBound - position) bytes)")
            case .box(let box, let contentStart):
                boxes.append(ISOBMFFBox(type: type, range: box, contentStart: contentStart))
                position = box.upperBound
            }
        }
        return boxes
    }
}
