/// The image item types of an ISO BMFF (HEIF) file, read from its top-level `meta` box's `iinf`
/// (each `infe`, version 2 or 3, names its `item_type`). libvips 8.14 reports `heif-compression`
/// from the file's brand, not its items, so an HEVC image under an `avif` brand would pass for
/// AVIF; this looks at what libheif will actually decode.
enum AVIFItems {
    /// Item types an AVIF may hold: AV1 images, derived images (grid, overlay, identity) and
    /// metadata items.
    static let allowedTypes: Set<String> = ["av01", "grid", "iovl", "iden", "Exif", "mime", "uri "]

    /// Whether every item of the file is of an allowed type and at least one is an AV1 image;
    /// `false` when the boxes cannot be read.
    static func areAV1(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let types = itemTypes(bytes), types.contains("av01") else { return false }
        return types.allSatisfy(allowedTypes.contains)
    }

    /// Every `infe` item type in file order, or `nil` when there is no readable `meta`/`iinf`.
    static func itemTypes(_ bytes: UnsafeRawBufferPointer) -> [String]? {
        guard let meta = boxes(bytes, 0..<bytes.count).first(where: { $0.type == "meta" }),
              meta.body.count >= 4 else { return nil }
        let metaChildren = (meta.body.lowerBound + 4)..<meta.body.upperBound  // full box: version, flags
        guard let iinf = boxes(bytes, metaChildren).first(where: { $0.type == "iinf" }),
              iinf.body.count >= 6 else { return nil }
        let version = bytes[iinf.body.lowerBound]
        let entriesStart = iinf.body.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard entriesStart <= iinf.body.upperBound else { return nil }
        var types: [String] = []
        for entry in boxes(bytes, entriesStart..<iinf.body.upperBound) where entry.type == "infe" {
            let start = entry.body.lowerBound
            guard entry.body.count >= 4 else { return nil }
            let infeVersion = bytes[start]
            guard infeVersion >= 2 else { return nil }
            let typeOffset = start + 4 + (infeVersion == 2 ? 2 : 4) + 2  // item_ID, protection index
            guard typeOffset + 4 <= entry.body.upperBound else { return nil }
            types.append(fourCC(bytes, at: typeOffset))
        }
        return types
    }

    private struct Box {
        var type: String
        var body: Range<Int>
    }

    /// The boxes laid end to end in `range` (stopping at the first malformed one).
    private static func boxes(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = bigEndian(bytes, at: offset, count: 4)
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { break }
                size = bigEndian(bytes, at: offset + 8, count: 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            found.append(Box(type: fourCC(bytes, at: offset + 4), body: (offset + header)..<(offset + size)))
            offset += size
        }
        return found
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> Int {
        var value = 0
        for index in offset..<offset + count {
            guard value <= Int.max >> 8 else { return Int.max }
            value = value << 8 | Int(bytes[index])
        }
        return value
    }

    private static func fourCC(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
