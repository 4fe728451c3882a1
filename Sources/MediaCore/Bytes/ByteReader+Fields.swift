extension ByteReader {
    // Reads for the metadata parsers (JPEG, PNG, GIF, WebP, ISOBMFF): integers as `Int`, either byte order by flag,
    // over the typed reads above.

    public func u8(_ offset: Int) -> Int? {
        uint8(at: offset).map(Int.init)
    }

    /// An unsigned 16-bit integer at `offset`, big-endian unless `littleEndian`.
    public func u16(_ offset: Int, littleEndian: Bool = false) -> Int? {
        littleEndian ? uint16LE(at: offset) : uint16BE(at: offset)
    }

    /// An unsigned 32-bit integer at `offset`, big-endian unless `littleEndian`.
    public func u32(_ offset: Int, littleEndian: Bool = false) -> Int? {
        (littleEndian ? uint32LE(at: offset) : uint32BE(at: offset)).map(Int.init)
    }

    /// An unsigned 64-bit big-endian integer at `offset`, or `nil` when it exceeds `Int.max` (ISOBMFF largesize).
    public func u64(_ offset: Int) -> Int? {
        uint64BE(at: offset).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
    }

    /// Whether the bytes at `offset` are `ascii`.
    public func matches(_ ascii: String, at offset: Int) -> Bool {
        matches(Array(ascii.utf8), at: offset)
    }

    /// The bytes at `offset..<offset + length` as ASCII text for messages (non-printable bytes as `?`).
    public func text(_ offset: Int, _ length: Int) -> String {
        guard let r = range(offset, length) else { return "" }
        return String(decoding: bytes[r].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
