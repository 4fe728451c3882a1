#if canImport(Glibc)
import Glibc
#endif

/// The byte-level grammar of a JPEG (ITU-T T.81 Annex B) that both readers of JPEGs walk with: the image validator
/// (`ImageValidator`, which checks a whole file) and the metadata stripper (`JPEGMetadataStripper`, which copies one
/// without its metadata segments). Each reads markers, segment lengths and entropy-coded data with these, and says
/// in its own words what it refuses.
public enum JPEGSyntax {
    /// What is at an offset where a marker must start.
    public enum Marker: Equatable, Sendable {
        /// The marker `code`, at `codeOffset` (after its `FF` and any fill bytes `FF` before it).
        case marker(code: UInt8, codeOffset: Int)
        /// A byte other than `FF`.
        case notAMarker(found: UInt8)
        /// The data ends at `offset`: where the marker should start, or after its fill bytes.
        case ends(at: Int)
    }

    /// The marker at `offset`: `FF`, any fill bytes `FF`, then its code (`00` included: the caller refuses it).
    public static func marker(_ bytes: [UInt8], at offset: Int) -> Marker {
        guard offset >= 0, offset < bytes.count else { return .ends(at: max(offset, 0)) }
        guard bytes[offset] == 0xFF else { return .notAMarker(found: bytes[offset]) }
        var code = offset + 1
        while code < bytes.count, bytes[code] == 0xFF { code += 1 }
        guard code < bytes.count else { return .ends(at: code) }
        return .marker(code: bytes[code], codeOffset: code)
    }

    /// What a segment's length field (after its marker code) says.
    public enum Segment: Equatable, Sendable {
        /// The segment ends at `end` (its length field, payload and all within the data).
        case ends(at: Int)
        /// The data ends before the two bytes of the length field.
        case noLength
        /// The length field is below 2 (it counts itself).
        case tooShort(length: Int)
        /// The segment runs past the end of the data.
        case pastEnd(length: Int)
    }

    /// The segment whose 16-bit big-endian length field starts at `lengthAt` (the offset after the marker code).
    public static func segment(_ bytes: [UInt8], lengthAt: Int) -> Segment {
        guard lengthAt >= 0, lengthAt + 2 <= bytes.count else { return .noLength }
        let length = Int(bytes[lengthAt]) << 8 | Int(bytes[lengthAt + 1])
        guard length >= 2 else { return .tooShort(length: length) }
        guard length <= bytes.count - lengthAt else { return .pastEnd(length: length) }
        return .ends(at: lengthAt + length)
    }

    /// Markers without a length (T.81 §B.1.1.3): TEM and RST0–RST7 (SOI and EOI are the callers').
    public static func isStandalone(_ code: UInt8) -> Bool { code == 0x01 || (0xD0...0xD7).contains(code) }

    /// SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC): a frame header.
    public static func isStartOfFrame(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    /// The offset of the marker that ends the entropy-coded data starting at `start` (its first `FF`, fill bytes
    /// included), skipping stuffed `FF 00` and RSTn; `nil` when the data ends first.
    ///
    /// Finds each `FF` with `memchr` (entropy-coded data is mostly other bytes), so the scan costs about one
    /// instruction per byte instead of a bounds-checked loop.
    public static func entropyCodedDataEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        let count = bytes.count
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = max(start, 0)
            while offset + 1 < count {
                // Only the bytes up to count - 1 can start a marker (a marker needs a second byte).
                guard let hit = memchr(base + offset, 0xFF, count - 1 - offset) else { return nil }
                offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                let next = base[offset + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    offset += 2
                    continue
                }
                if next != 0xFF { return offset }
                offset += 1
            }
            return nil
        }
    }
}
