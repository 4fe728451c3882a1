/// Builds tiny synthetic images byte by byte, for formats and faults the corpus lacks.
enum ImageBuilder {
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func le16(_ value: Int) -> [UInt8] { [0, 8].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func be16(_ value: Int) -> [UInt8] { [8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// Bitwise CRC-32 (independent of the table-driven one under test).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    static func png(width: Int, height: Int, idat: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += pngChunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
        if idat { out += pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) }
        out += pngChunk("IEND", [])
        return out
    }

    /// SOI, SOF0 (one component), SOS, entropy data with a stuffed byte and a restart marker, EOI.
    static func jpeg(width: Int, height: Int, frame: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE0] + be16(6) + Array("JFIF".utf8)
        if frame { out += [0xFF, 0xC0] + be16(11) + [8] + be16(height) + be16(width) + [1, 1, 0x11, 0] }
        out += [0xFF, 0xDA] + be16(8) + [1, 1, 0, 0, 63, 0]
        out += [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        out += [0xFF, 0xD9]
        return out
    }

    static func gif(width: Int, height: Int, frameWidth: Int? = nil, trailer: Bool = true) -> [UInt8] {
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0]
        out += [0, 0, 0, 255, 255, 255]
        out += [0x21, 0xF9, 4, 0, 0, 0, 0, 0]
        out += [0x2C] + le16(0) + le16(0) + le16(frameWidth ?? width) + le16(height) + [0]
        out += [2, 2, 0x4C, 0x01, 0]
        if trailer { out += [0x3B] }
        return out
    }

    static func webp(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var body = Array("WEBP".utf8)
        for (type, data) in chunks {
            body += Array(type.utf8) + le32(data.count) + data
            if data.count % 2 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    static func vp8l(width: Int, height: Int) -> (String, [UInt8]) {
        ("VP8L", [0x2F] + le32((width - 1) | (height - 1) << 14))
    }

    static func vp8x(width: Int, height: Int) -> (String, [UInt8]) {
        ("VP8X", [0, 0, 0, 0] + Array(le32(width - 1).prefix(3)) + Array(le32(height - 1).prefix(3)))
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(payload.count + 8) + Array(type.utf8) + payload
    }

    /// ftyp, meta(hdlr-less) / iprp / ipco / ispe…, mdat.
    static func heif(brands: [String], sizes: [(Int, Int)], mdat: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        let ftyp = box("ftyp", Array(brands[0].utf8) + [0, 0, 0, 0] + brands.dropFirst().flatMap { Array($0.utf8) })
        let ispes = sizes.flatMap { box("ispe", [0, 0, 0, 0] + be32($0.0) + be32($0.1)) }
        let meta = box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", ispes)))
        return ftyp + meta + box("mdat", mdat)
    }
}
