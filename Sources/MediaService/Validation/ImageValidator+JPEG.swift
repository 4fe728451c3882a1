import MediaCore

extension ImageValidator {
    /// Walks a JPEG's markers (ITU-T T.81 §B.1, with ``MediaCore/JPEGSyntax``): SOI, segments with lengths, the SOFn
    /// frame header for the dimensions, entropy-coded data after SOS, and EOI as the last two bytes.
    func validateJPEG(_ reader: ByteReader) throws(ImageValidationError) -> (width: Int, height: Int) {
        let bytes = reader.bytes, count = bytes.count
        var offset = 2
        var size: (width: Int, height: Int)?
        while true {
            let marker: UInt8
            switch JPEGSyntax.marker(bytes, at: offset) {
            case .ends: throw Self.truncated("JPEG", "ends at byte \(count) before EOI")
            case .notAMarker: throw Self.corrupt("JPEG", "expected a marker at offset \(offset)")
            case .marker(let code, let codeOffset):
                marker = code
                offset = codeOffset + 1
            }
            switch marker {
            case 0xD9:
                guard let size else { throw Self.corrupt("JPEG", "EOI before a frame header") }
                if offset != count { throw Self.trailing("JPEG", count - offset, after: offset) }
                return size
            case 0xD8, 0x00:
                throw Self.corrupt("JPEG", "unexpected marker 0x\(hex(marker)) at offset \(offset - 1)")
            case let code where JPEGSyntax.isStandalone(code):
                continue
            default:
                let end: Int
                switch JPEGSyntax.segment(bytes, lengthAt: offset) {
                case .noLength:
                    throw Self.truncated("JPEG", "ends inside the segment at offset \(offset - 2)")
                case .tooShort(let length):
                    throw Self.corrupt("JPEG", "segment 0x\(hex(marker)) at offset \(offset - 2) has length \(length)")
                case .pastEnd:
                    throw Self.truncated("JPEG", "segment 0x\(hex(marker)) at offset \(offset - 2) ends past the body")
                case .ends(let at):
                    end = at
                }
                if JPEGSyntax.isStartOfFrame(marker) {
                    guard size == nil else { throw Self.corrupt("JPEG", "a second frame header at offset \(offset - 2)") }
                    guard end - offset >= 8, let height = reader.uint16BE(at: offset + 3),
                          let width = reader.uint16BE(at: offset + 5)
                    else { throw Self.corrupt("JPEG", "frame header at offset \(offset - 2) is too short") }
                    try checkDimensions(width, height, "JPEG frame")
                    size = (width, height)
                }
                offset = end
                if marker == 0xDA {
                    guard size != nil else { throw Self.corrupt("JPEG", "scan before a frame header") }
                    offset = try Self.skipEntropyCodedData(bytes, from: offset)
                }
            }
        }
    }

    /// The offset of the next marker after entropy-coded data (``MediaCore/JPEGSyntax/entropyCodedDataEnd(_:from:)``).
    static func skipEntropyCodedData(_ bytes: [UInt8], from start: Int) throws(ImageValidationError) -> Int {
        if let found = JPEGSyntax.entropyCodedDataEnd(bytes, from: start) { return found }
        throw truncated("JPEG", "ends at byte \(bytes.count) inside entropy-coded data, before EOI")
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

func hex32(_ value: UInt32) -> String {
    "0x" + (0..<4).map { hex(UInt8(truncatingIfNeeded: value >> (24 - 8 * $0))) }.joined()
}
