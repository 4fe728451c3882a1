import MediaCore

extension ImageValidator {
    /// One ISO BMFF box (ISO/IEC 14496-12 §4.2): its type and the byte range of its payload.
    struct Box {
        let type: String
        let offset: Int
        let payload: Range<Int>
    }

    /// Checks an AVIF/HEIF file (ISO/IEC 14496-12 boxes, ISO/IEC 23008-12 `ispe`): every top-level
    /// box lies inside the body, and `meta`/`iprp`/`ipco` holds an `ispe` with the dimensions.
    /// With several `ispe` (tiles, alpha, thumbnails), the largest counts.
    func validateISOBMFF(_ reader: ByteReader, format: ImageFormat) throws(ImageValidationError)
        -> (width: Int, height: Int)
    {
        let name = format.name.uppercased()
        var size: (width: Int, height: Int)?
        for box in try Self.boxes(reader, in: 0..<reader.count, format: name) where box.type == "meta" {
            let metaChildren = (box.payload.lowerBound + 4)..<box.payload.upperBound
            guard metaChildren.lowerBound <= metaChildren.upperBound else { throw Self.corrupt(name, "meta box too short") }
            for iprp in try Self.boxes(reader, in: metaChildren, format: name) where iprp.type == "iprp" {
                for ipco in try Self.boxes(reader, in: iprp.payload, format: name) where ipco.type == "ipco" {
                    for ispe in try Self.boxes(reader, in: ipco.payload, format: name) where ispe.type == "ispe" {
                        guard ispe.payload.count >= 12 else { throw Self.corrupt(name, "ispe box too short") }
                        let width = Int(reader.uint32BE(at: ispe.payload.lowerBound + 4)!)
                        let height = Int(reader.uint32BE(at: ispe.payload.lowerBound + 8)!)
                        try checkDimensions(width, height, "\(name) ispe")
                        if size == nil || width * height > size!.width * size!.height { size = (width, height) }
                    }
                }
            }
        }
        guard let size else { throw Self.corrupt(name, "no ispe property in meta/iprp/ipco") }
        return size
    }

    /// The boxes tiling `range` (``MediaCore/ISOBMFFSyntax``); a box ending past `range` is truncated (at the top
    /// level) or corrupt.
    static func boxes(_ reader: ByteReader, in range: Range<Int>, format: String) throws(ImageValidationError) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        let topLevel = range.upperBound == reader.count
        while offset < range.upperBound {
            switch ISOBMFFSyntax.box(reader, at: offset, within: range.upperBound, countsUserType: false) {
            case .partialHeader:
                throw topLevel ? truncated(format, "a partial box header at offset \(offset)")
                    : corrupt(format, "a partial box header at offset \(offset)")
            case .badLargeSize:
                throw corrupt(format, "bad 64-bit box size at offset \(offset)")
            case .tooShort(let size, _):
                throw corrupt(format, "box at offset \(offset) has size \(size)")
            case .pastEnd:
                throw topLevel ? truncated(format, "box \(reader.fourCC(at: offset + 4)!) at offset \(offset) ends past the body")
                    : corrupt(format, "box \(reader.fourCC(at: offset + 4)!) at offset \(offset) ends past its parent")
            case .box(let box, let contentStart):
                result.append(Box(type: reader.fourCC(at: offset + 4)!, offset: offset, payload: contentStart..<box.upperBound))
                offset = box.upperBound
            }
        }
        return result
    }
}
