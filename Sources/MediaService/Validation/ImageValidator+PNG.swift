import MediaCore

extension ImageValidator {
    /// Walks a PNG (PNG specification §5): the signature, IHDR first (13 bytes, valid CRC-32,
    /// valid bit depth and colour type), every chunk's length and CRC-32, IDAT, IEND last.
    func validatePNG(_ reader: ByteReader) throws(ImageValidationError) -> (width: Int, height: Int) {
        let bytes = reader.bytes, count = bytes.count
        guard count >= 33 else { throw Self.truncated("PNG", "\(count) bytes end before IHDR does") }
        guard reader.uint32BE(at: 8) == 13, reader.fourCC(at: 12) == "IHDR" else {
            throw Self.corrupt("PNG", "the first chunk is not a 13-byte IHDR")
        }
        let stored = reader.uint32BE(at: 29)!, computed = CRC32.checksum(bytes, 12..<29)
        guard stored == computed else {
            throw Self.corrupt("PNG", "IHDR CRC mismatch (stored \(hex32(stored)), computed \(hex32(computed)))")
        }
        let width = reader.uint32BE(at: 16)!, height = reader.uint32BE(at: 20)!
        guard width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw Self.corrupt("PNG", "IHDR dimensions exceed 2^31-1")
        }
        guard Self.isValidPNGDepth(bitDepth: bytes[24], colorType: bytes[25]),
              bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1
        else { throw Self.corrupt("PNG", "IHDR has invalid bit depth, colour type or method fields") }
        try checkDimensions(Int(width), Int(height), "PNG IHDR")

        var offset = 33
        var sawData = false
        while true {
            guard offset + 12 <= count else { throw Self.truncated("PNG", "ends at byte \(count) before IEND") }
            let length = Int(reader.uint32BE(at: offset)!)
            guard length <= 0x7FFF_FFFF else { throw Self.corrupt("PNG", "chunk length over 2^31-1 at offset \(offset)") }
            let type = reader.fourCC(at: offset + 4)!
            guard bytes[(offset + 4)..<(offset + 8)].allSatisfy(Self.isASCIILetter) else {
                throw Self.corrupt("PNG", "invalid chunk type at offset \(offset)")
            }
            let end = offset + 12 + length
            guard end <= count else { throw Self.truncated("PNG", "chunk \(type) at offset \(offset) ends past the body") }
            let chunkCRC = reader.uint32BE(at: end - 4)!
            guard chunkCRC == CRC32.checksum(bytes, (offset + 4)..<(end - 4)) else {
                throw Self.corrupt("PNG", "chunk \(type) at offset \(offset) has a bad CRC")
            }
            switch type {
            case "IHDR": throw Self.corrupt("PNG", "a second IHDR at offset \(offset)")
            case "IDAT": sawData = true
            case "IEND":
                guard sawData else { throw Self.corrupt("PNG", "IEND before any IDAT") }
                if end != count { throw Self.trailing("PNG", count - end, after: end) }
                return (Int(width), Int(height))
            default: break
            }
            offset = end
        }
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// The allowed (colour type, bit depth) pairs of PNG §11.2.2.
    static func isValidPNGDepth(bitDepth: UInt8, colorType: UInt8) -> Bool {
        switch colorType {
        case 0: return [1, 2, 4, 8, 16].contains(bitDepth)
        case 3: return [1, 2, 4, 8].contains(bitDepth)
        case 2, 4, 6: return bitDepth == 8 || bitDepth == 16
        default: return false
        }
    }
}
