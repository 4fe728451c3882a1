import MediaCore

extension ImageValidator {
    /// Checks a WebP container (RFC 9649 §2): the RIFF size equals the body length minus 8, the
    /// first chunk is `VP8 ` (lossy, §2.5), `VP8L` (lossless, §2.6) or `VP8X` (extended, §2.7)
    /// with the canvas size, and every chunk lies inside the RIFF size.
    func validateWebP(_ reader: ByteReader) throws(ImageValidationError) -> (width: Int, height: Int) {
        let count = reader.count
        let total = Int(reader.uint32LE(at: 4)!) + 8
        if total > count { throw Self.truncated("WebP", "RIFF size declares \(total) bytes, the body has \(count)") }
        if total < count { throw Self.trailing("WebP", count - total, after: total) }
        guard total >= 20, let first = reader.fourCC(at: 12), let firstSize = reader.uint32LE(at: 16) else {
            throw Self.truncated("WebP", "ends before the first chunk")
        }
        let data = 20
        guard data + Int(firstSize) <= total else { throw Self.corrupt("WebP", "chunk \(first) is larger than the RIFF") }
        let size: (width: Int, height: Int)
        switch first {
        case "VP8 ":
            guard firstSize >= 10, reader.matches([0x9D, 0x01, 0x2A], at: data + 3) else {
                throw Self.corrupt("WebP", "VP8 chunk without a key frame start code")
            }
            size = (reader.uint16LE(at: data + 6)! & 0x3FFF, reader.uint16LE(at: data + 8)! & 0x3FFF)
        case "VP8L":
            guard firstSize >= 5, reader.uint8(at: data) == 0x2F else {
                throw Self.corrupt("WebP", "VP8L chunk without its signature byte")
            }
            let bits = Int(reader.uint32LE(at: data + 1)!)
            size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard firstSize >= 10 else { throw Self.corrupt("WebP", "VP8X chunk shorter than 10 bytes") }
            size = (reader.uint24LE(at: data + 4)! + 1, reader.uint24LE(at: data + 7)! + 1)
        default:
            throw Self.corrupt("WebP", "the first chunk is \(first), not VP8, VP8L or VP8X")
        }
        try checkDimensions(size.width, size.height, "WebP canvas")

        var offset = 12
        while offset < total {
            guard offset + 8 <= total, let chunkSize = reader.uint32LE(at: offset + 4) else {
                throw Self.corrupt("WebP", "a partial chunk header at offset \(offset)")
            }
            let end = offset + 8 + Int(chunkSize)
            guard end <= total else { throw Self.corrupt("WebP", "chunk at offset \(offset) ends past the RIFF size") }
            offset = end + Int(chunkSize & 1)
        }
        return size
    }
}
