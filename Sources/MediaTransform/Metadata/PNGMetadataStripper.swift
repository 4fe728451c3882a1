import MediaCore

/// Removes metadata chunks from a PNG (PNG 3rd edition §5.3, §11.3.3 eXIf, §11.3.4 tEXt/zTXt/iTXt, tIME).
///
/// Chunks are walked from the signature to IEND, each CRC checked: `tEXt`, `zTXt`, `iTXt`, `eXIf` and
/// `tIME` are removed; every other chunk (IHDR, PLTE, IDAT, IEND, iCCP, sRGB, gAMA, cHRM, pHYs, tRNS,
/// bKGD, acTL/fcTL/fdAT, unknown ones) is kept verbatim in order; bytes after IEND are dropped. When the
/// first eXIf holds an Orientation other than 1, a minimal eXIf with only it (same byte order, CRC
/// computed) is written right after IHDR.
///
/// Throws when the signature is wrong, the first chunk is not IHDR, a length exceeds 2^31 − 1 or runs
/// past the end, a chunk type is not four ASCII letters, a CRC does not match, or the file ends before IEND.
enum PNGMetadataStripper {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let removedTypes: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]

    static func strip(_ bytes: [UInt8]) throws(MetadataStripError) -> StrippedImage {
        let view = ByteReader(bytes)
        guard bytes.starts(with: signature) else { throw failure("the file does not start with the PNG signature") }
        var kept: [Range<Int>] = []
        var removed: [(label: String, range: Range<Int>)] = []
        var exif: (orientation: Int?, littleEndian: Bool)?
        var position = signature.count
        while true {
            guard let length = view.u32(position), view.range(position, 8) != nil else {
                throw failure("the file ends at offset \(bytes.count), before IEND")
            }
            let type = view.text(position + 4, 4)
            guard bytes[(position + 4)..<(position + 8)].allSatisfy(isLetter) else {
                throw failure("the chunk at offset \(position) has type \(Hex.bytes(Array(bytes[(position + 4)..<(position + 8)]))), not four letters")
            }
            guard length <= 0x7FFF_FFFF else {
                throw failure("chunk \(type) at offset \(position) has length \(length) (at most 2147483647)")
            }
            guard let chunk = view.range(position, 12 + length) else {
                throw failure("chunk \(type) at offset \(position) is \(length) bytes long, past the end of the file (\(bytes.count) bytes)")
            }
            if kept.isEmpty && removed.isEmpty && type != "IHDR" {
                throw failure("the first chunk is \(type), not IHDR")
            }
            let stored = UInt32(view.u32(position + 8 + length) ?? 0)
            let computed = CRC32.checksum(bytes[(position + 4)..<(position + 8 + length)])
            guard stored == computed else {
                throw failure("chunk \(type) at offset \(position) has CRC \(Hex.text(Int(stored), digits: 8)), computed \(Hex.text(Int(computed), digits: 8))")
            }
            if removedTypes.contains(type) {
                removed.append((type, chunk))
                if type == "eXIf", exif?.orientation == nil,
                   let found = ExifOrientation.read(bytes[(position + 8)..<(position + 8 + length)]) {
                    exif = found
                }
            } else {
                kept.append(chunk)
            }
            position = chunk.upperBound
            if type == "IEND" { break }
        }

        var inserted: [UInt8] = []
        if let exif, let orientation = exif.orientation, orientation != 1 {
            inserted = chunk("eXIf", ExifOrientation.minimalTIFF(orientation: orientation, littleEndian: exif.littleEndian))
        }
        var out = signature
        out.reserveCapacity(bytes.count)
        for (index, range) in kept.enumerated() {
            out += bytes[range]
            if index == 0 { out += inserted }  // after IHDR
        }
        var labels = removed.filter { inserted.isEmpty || !bytes[$0.range].elementsEqual(inserted) }.map(\.label)
        if position < bytes.count { labels.append("trailing data") }
        return StrippedImage(bytes: out, removed: labels, orientation: exif?.orientation)
    }

    /// A chunk: length (big-endian), type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return u32(data.count) + body + u32(Int(CRC32.checksum(body)))
    }

    private static func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    static func failure(_ problem: String) -> MetadataStripError { MetadataStripError(detail: "PNG: " + problem) }
}
