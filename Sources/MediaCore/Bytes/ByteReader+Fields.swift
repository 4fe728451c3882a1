extension ByteReader {
    // Reads for the metadata parsers (JPEG, PNG, GIF, WebP, ISOBMFF): integers as `Int`, either byte order by flag.

    /// `offset..<offset + length` when it lies within the bytes.
    public func range(_ offset: Int, _ length: Int) -> Range<Int>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return offset..<(offset + length)
    }

    public func u8(_ offset: Int) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return Int(bytes[offset])
    }

    /// An unsigned 16-bit integer at `offset`, big-endian unless `littleEndian`.
    public func u16(_ offset: Int, littleEndian: Bool = false) -> Int? {
        guard let r = range(offset, 2) else { return nil }
        let (a, b) = (Int(bytes[r.lowerBound]), Int(bytes[r.lowerBound + 1]))
        return littleEndian ? b << 8 | a : a << 8 | b
    }

    /// An unsigned 32-bit integer at `offset`, big-endian unless `littleEndian`.
    public func u32(_ offset: Int, littleEndian: Bool = false) -> Int? {
        guard let r = range(offset, 4) else { return nil }
        var value = 0
        for index in 0..<4 {
            let byte = Int(bytes[r.lowerBound + (littleEndian ? 3 - index : index)])
            value = value << 8 | byte
        }
        return value
    }

    /// An unsigned 64-bit big-endian integer at `offset`, or `nil` when it exceeds `Int.max` (ISOBMFF largesize).
    public func u64(_ offset: Int) -> Int? {
        guard let high = u32(offset), let low = u32(offset + 4), high < 0x8000_0000 else { return nil }
        return high << 32 | low
    }

    /// Whether the bytes at `offset` are `ascii`.
    public func matches(_ ascii: String, at offset: Int) -> Bool {
        let expected = Array(ascii.utf8)
        guard let r = range(offset, expected.count) else { return false }
        return bytes[r].elementsEqual(expected)
    }

    /// The bytes at `offset..<offset + length` as ASCII text for messages (non-printable bytes as `?`).
    public func text(_ offset: Int, _ length: Int) -> String {
        guard let r = range(offset, length) else { return "" }
        return String(decoding: bytes[r].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
