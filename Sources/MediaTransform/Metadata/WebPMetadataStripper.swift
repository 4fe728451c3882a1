import MediaCore
/// Removes metadata chunks from a WebP (RIFF container, "WebP Container Specification", RFC 9649 §2.7).
///
/// Chunks are walked from `RIFF <size> WEBP` to the end the RIFF size gives (each padded to an even
/// length): `EXIF` and `XMP ` are removed, every other chunk (VP8X, ICCP, ANIM, ANMF, ALPH, VP8, VP8L,
/// unknown ones) is kept verbatim in order; the VP8X flags lose EXIF (0x08) and XMP (0x04), the RIFF size
/// is recomputed, and bytes after the RIFF data are dropped. When the first EXIF holds an Orientation
/// other than 1 and the file has a VP8X (the simple format cannot carry metadata), a minimal EXIF chunk
/// with only it is written at the end, and the EXIF flag set.
///
/// Throws when the header is not `RIFF….WEBP`, the RIFF size runs past the end of the file, a chunk runs
/// past the RIFF data, or VP8X is shorter than 10 bytes.
enum WebPMetadataStripper {
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    static func strip(_ bytes: [UInt8]) throws(MetadataStripError) -> StrippedImage {
        let view = ByteReader(bytes)
        guard view.matches("RIFF", at: 0), view.matches("WEBP", at: 8), let riffSize = view.u32(4, littleEndian: true) else {
            throw failure("the file does not start with RIFF <size> WEBP")
        }
        guard riffSize >= 4, let riff = view.range(8, riffSize) else {
            throw failure("the RIFF size \(riffSize) runs past the end of the file (\(bytes.count) bytes)")
        }
        var kept: [(fourCC: String, range: Range<Int>)] = []
        var removed: [(label: String, range: Range<Int>)] = []
        var exif: (orientation: Int?, littleEndian: Bool)?
        var position = 12
        while position < riff.upperBound {
            guard let size = view.u32(position + 4, littleEndian: true), position + 8 <= riff.upperBound else {
                throw failure("the chunk header at offset \(position) runs past the RIFF data (ends at \(riff.upperBound))")
            }
            let fourCC = view.text(position, 4)
            guard let chunk = view.range(position, 8 + size + size % 2), chunk.upperBound <= riff.upperBound else {
                throw failure("chunk '\(fourCC)' at offset \(position) is \(size) bytes long, past the RIFF data (ends at \(riff.upperBound))")
            }
            switch fourCC {
            case "EXIF":
                removed.append(("EXIF", chunk))
                if exif?.orientation == nil, let found = ExifOrientation.read(bytes[(position + 8)..<(position + 8 + size)]) {
                    exif = found
                }
            case "XMP ":
                removed.append(("XMP", chunk))
            case "VP8X":
                guard size >= 10 else { throw failure("chunk 'VP8X' at offset \(position) is \(size) bytes long (at least 10)") }
                kept.append((fourCC, chunk))
            default:
                kept.append((fourCC, chunk))
            }
            position = chunk.upperBound
        }

        let extended = kept.contains { $0.fourCC == "VP8X" }
        var inserted: [UInt8] = []
        if extended, let exif, let orientation = exif.orientation, orientation != 1 {
            let tiff = ExifOrientation.minimalTIFF(orientation: orientation, littleEndian: exif.littleEndian)
            inserted = Array("EXIF".utf8) + u32le(tiff.count) + tiff
        }
        var body = Array("WEBP".utf8)
        body.reserveCapacity(riffSize)
        for (fourCC, range) in kept {
            let start = body.count
            body += bytes[range]
            if fourCC == "VP8X" {
                body[start + 8] &= ~(exifFlag | xmpFlag)
                if !inserted.isEmpty { body[start + 8] |= exifFlag }
            }
        }
        body += inserted
        var labels = removed.filter { inserted.isEmpty || !bytes[$0.range].elementsEqual(inserted) }.map(\.label)
        if riff.upperBound < bytes.count { labels.append("trailing data") }
        return StrippedImage(bytes: Array("RIFF".utf8) + u32le(body.count) + body, removed: labels,
                             orientation: exif?.orientation)
    }

    private static func u32le(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) } }

    static func failure(_ problem: String) -> MetadataStripError { MetadataStripError(detail: "WebP: " + problem) }
}
