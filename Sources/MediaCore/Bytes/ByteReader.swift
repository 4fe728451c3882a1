/// Bounds-checked big- and little-endian reads over a body. Every read returns `nil` outside the bytes; offsets and
/// lengths are checked without overflowing (``range(_:_:)``), whatever a hostile file claims.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var count: Int { bytes.count }

    /// `offset..<offset + length` when it lies within the bytes.
    public func range(_ offset: Int, _ length: Int) -> Range<Int>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return offset..<(offset + length)
    }

    public func matches(_ prefix: [UInt8], at offset: Int) -> Bool {
        guard let r = range(offset, prefix.count) else { return false }
        return bytes[r].elementsEqual(prefix)
    }

    public func uint8(at offset: Int) -> UInt8? {
        range(offset, 1).map { bytes[$0.lowerBound] }
    }

    public func uint16BE(at offset: Int) -> Int? {
        guard let r = range(offset, 2) else { return nil }
        return Int(bytes[r.lowerBound]) << 8 | Int(bytes[r.lowerBound + 1])
    }

    public func uint16LE(at offset: Int) -> Int? {
        guard let r = range(offset, 2) else { return nil }
        return Int(bytes[r.lowerBound + 1]) << 8 | Int(bytes[r.lowerBound])
    }

    public func uint24LE(at offset: Int) -> Int? {
        guard let r = range(offset, 3) else { return nil }
        return Int(bytes[r.lowerBound + 2]) << 16 | Int(bytes[r.lowerBound + 1]) << 8 | Int(bytes[r.lowerBound])
    }

    public func uint32BE(at offset: Int) -> UInt32? {
        guard let r = range(offset, 4) else { return nil }
        let o = r.lowerBound
        return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
    }

    public func uint32LE(at offset: Int) -> UInt32? {
        guard let r = range(offset, 4) else { return nil }
        let o = r.lowerBound
        return UInt32(bytes[o + 3]) << 24 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o])
    }

    public func uint64BE(at offset: Int) -> UInt64? {
        guard offset <= Int.max - 4, let high = uint32BE(at: offset), let low = uint32BE(at: offset + 4) else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    /// Four ASCII bytes as a string (a PNG chunk type, RIFF chunk id or BMFF box type).
    public func fourCC(at offset: Int) -> String? {
        guard let r = range(offset, 4) else { return nil }
        return String(decoding: bytes[r], as: UTF8.self)
    }
}
