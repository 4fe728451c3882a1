/// The box grammar of an ISO base media file (ISO/IEC 14496-12 §4.2: AVIF, HEIF, JPEG XL's container) that both of its
/// readers walk with: the image validator (`ImageValidator`) and the metadata inspector (`ISOBMFFMetadataInspector`).
/// Each says in its own words what it refuses.
public enum ISOBMFFSyntax {
    /// What is at an offset where a box must start. The box's type is the four bytes at its start + 4.
    public enum Box: Equatable, Sendable {
        /// A box: all of it, header included, and the first byte after its header.
        case box(range: Range<Int>, contentStart: Int)
        /// Fewer than the 8 bytes of a box header are left (`available`).
        case partialHeader(available: Int)
        /// A size of 1 without a readable 64-bit largesize (too few bytes, or above `Int.max`).
        case badLargeSize
        /// The box's size is below its header's.
        case tooShort(size: Int, header: Int)
        /// The box runs past its container.
        case pastEnd(size: Int, header: Int)
    }

    /// The box at `offset` in a container ending at `end`: a size of 1 takes the 64-bit largesize, 0 means "to the end of
    /// the container". With `countsUserType`, a `uuid` box's 16-byte user type is part of its header.
    public static func box(_ reader: ByteReader, at offset: Int, within end: Int, countsUserType: Bool) -> Box {
        let available = end - offset
        guard available >= 8, let size32 = reader.uint32BE(at: offset) else { return .partialHeader(available: available) }
        var header = 8
        var size = Int(size32)
        if size32 == 1 {
            guard available >= 16, let large = reader.uint64BE(at: offset + 8), large <= UInt64(Int.max) else {
                return .badLargeSize
            }
            size = Int(large)
            header = 16
        } else if size32 == 0 {
            size = available
        }
        if countsUserType, reader.matches(Array("uuid".utf8), at: offset + 4) { header += 16 }
        guard size >= header else { return .tooShort(size: size, header: header) }
        guard size <= available else { return .pastEnd(size: size, header: header) }
        return .box(range: offset..<(offset + size), contentStart: offset + header)
    }
}
