import MediaCore

extension ImageValidator {
    /// Walks a GIF (GIF89a specification §17–27): logical screen descriptor, global colour table,
    /// extension and image blocks with their sub-blocks, and the trailer `0x3B` as the last byte.
    /// Each frame's own size is also held to the pixel limit.
    func validateGIF(_ reader: ByteReader) throws(ImageValidationError) -> (width: Int, height: Int) {
        let bytes = reader.bytes, count = bytes.count
        guard count >= 13 else { throw Self.truncated("GIF", "\(count) bytes end inside the screen descriptor") }
        let width = reader.uint16LE(at: 6)!, height = reader.uint16LE(at: 8)!
        try checkDimensions(width, height, "GIF screen")
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << ((Int(bytes[10]) & 0x07) + 1) }
        var sawImage = false
        while true {
            guard offset < count else { throw Self.truncated("GIF", "ends at byte \(count) before the trailer") }
            switch bytes[offset] {
            case 0x3B:
                guard sawImage else { throw Self.corrupt("GIF", "trailer before any image") }
                if offset + 1 != count { throw Self.trailing("GIF", count - offset - 1, after: offset + 1) }
                return (width, height)
            case 0x21:
                offset = try Self.skipGIFSubBlocks(bytes, from: offset + 2)
            case 0x2C:
                guard offset + 10 <= count else { throw Self.truncated("GIF", "ends inside an image descriptor") }
                let frameWidth = reader.uint16LE(at: offset + 5)!, frameHeight = reader.uint16LE(at: offset + 7)!
                try checkDimensions(frameWidth, frameHeight, "GIF frame")
                let packed = bytes[offset + 9]
                offset += 10
                if packed & 0x80 != 0 { offset += 3 << ((Int(packed) & 0x07) + 1) }
                offset = try Self.skipGIFSubBlocks(bytes, from: offset + 1)
                sawImage = true
            default:
                throw Self.corrupt("GIF", "unknown block 0x\(hex(bytes[offset])) at offset \(offset)")
            }
        }
    }

    /// The offset after a chain of data sub-blocks ending with a zero-length block.
    static func skipGIFSubBlocks(_ bytes: [UInt8], from start: Int) throws(ImageValidationError) -> Int {
        var offset = start
        while true {
            guard offset < bytes.count else { throw truncated("GIF", "ends at byte \(bytes.count) inside a data block") }
            let length = Int(bytes[offset])
            offset += 1
            if length == 0 { return offset }
            offset += length
        }
    }
}
