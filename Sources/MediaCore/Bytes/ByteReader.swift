/// Bounds-checked big- and little-endian reads over a body. Every read returns `nil` past the end.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var count: Int { bytes.count }

    public func matches(_ prefix: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= bytes.count else { return false }
        for index in 0..<prefix.count where bytes[offset + index] != prefix[index] { return false }
        return true
    }

    public func uint8(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    public func uint16BE(at offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    public func uint16LE(at offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    public func uint24LE(at offset: Int) -> Int? {
        guard offset >= 0, offset + 3 <= bytes.count else { return nil }
        return Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    public func uint32BE(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    public func uint32LE(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset + 3]) << 24 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
    }

    public func uint64BE(at offset: Int) -> UInt64? {
        guard let high = uint32BE(at: offset), let low = uint32BE(at: offset + 4) else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    /// Four ASCII bytes as a string (a PNG chunk type, RIFF chunk id or BMFF box type).
    public func fourCC(at offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
