import Glibc
import MediaCore

extension ImageValidator {
    /// Walks a JPEG's markers (ITU-T T.81 §B.1): SOI, segments with lengths, the SOFn frame
    /// header for the dimensions, entropy-coded data after SOS, and EOI as the last two bytes.
    func validateJPEG(_ reader: ByteReader) throws(ImageValidationError) -> (width: Int, height: Int) {
        let bytes = reader.bytes, count = bytes.count
        var offset = 2
        var size: (width: Int, height: Int)?
        while true {
            guard offset < count else { throw Self.truncated("JPEG", "ends at byte \(count) before EOI") }
            guard bytes[offset] == 0xFF else {
                throw Self.corrupt("JPEG", "expected a marker at offset \(offset)")
            }
            while offset < count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < count else { throw Self.truncated("JPEG", "ends at byte \(count) before EOI") }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0xD9:
                guard let size else { throw Self.corrupt("JPEG", "EOI before a frame header") }
                if offset != count { throw Self.trailing("JPEG", count - offset, after: offset) }
                return size
            case 0xD8, 0x00:
                throw Self.corrupt("JPEG", "unexpected marker 0x\(hex(marker)) at offset \(offset - 1)")
            case 0x01, 0xD0...0xD7:
                continue
            default:
                guard let length = reader.uint16BE(at: offset) else {
                    throw Self.truncated("JPEG", "ends inside the segment at offset \(offset - 2)")
                }
                guard length >= 2 else {
                    throw Self.corrupt("JPEG", "segment 0x\(hex(marker)) at offset \(offset - 2) has length \(length)")
                }
                guard offset + length <= count else {
                    throw Self.truncated("JPEG", "segment 0x\(hex(marker)) at offset \(offset - 2) ends past the body")
                }
                if Self.isStartOfFrame(marker) {
                    guard size == nil else { throw Self.corrupt("JPEG", "a second frame header at offset \(offset - 2)") }
                    guard length >= 8, let height = reader.uint16BE(at: offset + 3),
                          let width = reader.uint16BE(at: offset + 5)
                    else { throw Self.corrupt("JPEG", "frame header at offset \(offset - 2) is too short") }
                    try checkDimensions(width, height, "JPEG frame")
                    size = (width, height)
                }
                offset += length
                if marker == 0xDA {
                    guard size != nil else { throw Self.corrupt("JPEG", "scan before a frame header") }
                    offset = try Self.skipEntropyCodedData(bytes, from: offset)
                }
            }
        }
    }

    /// SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The offset of the next marker after entropy-coded data (skipping stuffed `FF 00` and RSTn).
    ///
    /// Finds each `0xFF` with `memchr` (entropy-coded data is mostly other bytes), so the scan costs
    /// about one instruction per byte instead of a bounds-checked loop.
    static func skipEntropyCodedData(_ bytes: [UInt8], from start: Int) throws(ImageValidationError) -> Int {
        let count = bytes.count
        let found: Int? = bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = start
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
        if let found { return found }
        throw truncated("JPEG", "ends at byte \(count) inside entropy-coded data, before EOI")
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

func hex32(_ value: UInt32) -> String {
    "0x" + (0..<4).map { hex(UInt8(truncatingIfNeeded: value >> (24 - 8 * $0))) }.joined()
}
