import MediaCore

/// Removes metadata segments from a JPEG (ITU-T T.81 Annex B; JFIF; EXIF 2.32 §4.5.4; XMP part 3 §1.1.3).
///
/// Before the first SOS, segments are walked by their lengths (fill bytes `FF` allowed before a marker):
/// APP1 (Exif, XMP, extended XMP, anything), APP3–APP13, APP15 and COM are removed, APP2 unless it is
/// `ICC_PROFILE`, APP14 unless it is `Adobe`; APP0 (JFIF, JFXX) and every non-APP segment (DQT, SOFn,
/// DHT, DRI, …) are kept in order. From the first SOS to EOI the entropy-coded data, further scans and the
/// table segments between them are copied verbatim; a metadata segment between scans (a progressive file's
/// COM or APPn, which the same rules remove) is cut out, the scans around it untouched. Bytes after EOI are dropped. When the first EXIF with an
/// Orientation tag holds a value other than 1, a minimal APP1 Exif carrying only it (same byte order) is
/// written right after SOI and the APP0 segments that follow it.
///
/// Throws when the file does not start with SOI, a segment length is below 2 or runs past the end, a
/// byte where a marker must be is not `FF`, a second SOI or an EOI comes before the first SOS, or no EOI
/// follows the scan data.
enum JPEGMetadataStripper {
    static func strip(_ bytes: [UInt8]) throws(MetadataStripError) -> StrippedImage {
        let view = ByteReader(bytes)
        guard view.u16(0) == 0xFFD8 else { throw failure("the file does not start with SOI (FF D8)") }
        var kept: [(marker: Int, range: Range<Int>)] = []
        var removed: [(label: String, range: Range<Int>)] = []
        var exif: (orientation: Int?, littleEndian: Bool)?
        var position = 2
        while true {
            let (marker, markerEnd) = try readMarker(view, at: position, context: "before the first SOS")
            switch marker {
            case JPEGMarker.soi: throw failure("a second SOI at offset \(position)")
            case JPEGMarker.eoi: throw failure("EOI at offset \(position) before any SOS (no image data)")
            case let standalone where JPEGMarker.isStandalone(standalone):
                kept.append((marker, position..<markerEnd))
                position = markerEnd
                continue
            default: break
            }
            let end = try segmentEnd(view, marker: marker, start: position, lengthAt: markerEnd)
            if marker == JPEGMarker.sos {
                let (eoiEnd, betweenScans) = try scanEnd(view, sosStart: position)
                return assemble(bytes, kept: kept, removed: removed + betweenScans, exif: exif, scan: position..<eoiEnd,
                                cutFromScan: betweenScans.map(\.range))
            }
            let payload = bytes[(markerEnd + 2)..<end]
            let label = JPEGMarker.label(marker, payload: payload)
            if JPEGMarker.keeps(marker, label: label) {
                kept.append((marker, position..<end))
            } else {
                removed.append((label, position..<end))
                if label == "APP1 Exif", exif?.orientation == nil, let found = ExifOrientation.read(payload.dropFirst(6)) {
                    exif = found
                }
            }
            position = end
        }
    }

    /// The minimal APP1 Exif segment: `FF E1`, length 34, `Exif\0\0`, the 26-byte TIFF structure.
    static func orientationSegment(_ orientation: Int, littleEndian: Bool) -> [UInt8] {
        let body = ExifOrientation.jpegPrefix + ExifOrientation.minimalTIFF(orientation: orientation, littleEndian: littleEndian)
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    private static func assemble(_ bytes: [UInt8], kept: [(marker: Int, range: Range<Int>)],
                                 removed: [(label: String, range: Range<Int>)],
                                 exif: (orientation: Int?, littleEndian: Bool)?, scan: Range<Int>,
                                 cutFromScan: [Range<Int>]) -> StrippedImage {
        var segment: [UInt8] = []
        if let exif, let orientation = exif.orientation, orientation != 1 {
            segment = orientationSegment(orientation, littleEndian: exif.littleEndian)
        }
        let leadingAPP0 = kept.prefix { $0.marker == JPEGMarker.app0 }.count
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        for (index, piece) in kept.enumerated() {
            if index == leadingAPP0 { out += segment }
            out += bytes[piece.range]
        }
        if kept.count == leadingAPP0 { out += segment }
        var copied = scan.lowerBound
        for cut in cutFromScan {
            out += bytes[copied..<cut.lowerBound]
            copied = cut.upperBound
        }
        out += bytes[copied..<scan.upperBound]
        // A removed segment identical to the one written again lost nothing.
        var labels = removed.filter { segment.isEmpty || !bytes[$0.range].elementsEqual(segment) }.map(\.label)
        if scan.upperBound < bytes.count { labels.append("trailing data") }
        return StrippedImage(bytes: out, removed: labels,
                             orientation: exif?.orientation)
    }

    /// The marker at `offset` (after any fill bytes `FF`, ``MediaCore/JPEGSyntax/marker(_:at:)``) and the offset just
    /// after its code.
    private static func readMarker(_ view: ByteReader, at offset: Int, context: String) throws(MetadataStripError) -> (Int, Int) {
        switch JPEGSyntax.marker(view.bytes, at: offset) {
        case .ends(let at):
            throw failure("the file ends at offset \(at), \(context)")
        case .notAMarker(let found):
            throw failure("expected a marker at offset \(offset), found \(Hex.text(Int(found)))")
        case .marker(let code, let codeOffset):
            guard code != 0x00 else { throw failure("FF 00 at offset \(offset) where a marker must be") }
            return (Int(code), codeOffset + 1)
        }
    }

    /// The end of the segment whose length field is at `lengthAt` (``MediaCore/JPEGSyntax/segment(_:lengthAt:)``).
    private static func segmentEnd(_ view: ByteReader, marker: Int, start: Int, lengthAt: Int) throws(MetadataStripError) -> Int {
        switch JPEGSyntax.segment(view.bytes, lengthAt: lengthAt) {
        case .noLength:
            throw failure("the file ends at offset \(view.count), inside the \(JPEGMarker.name(marker)) segment at offset \(start)")
        case .tooShort(let length):
            throw failure("segment \(JPEGMarker.name(marker)) at offset \(start) has length \(length) (at least 2)")
        case .pastEnd(let length):
            throw failure("segment \(JPEGMarker.name(marker)) at offset \(start) is \(length) bytes long, past the end of the file (\(view.count) bytes)")
        case .ends(let end):
            return end
        }
    }

    /// The offset just after the EOI that ends the image whose first SOS is at `sosStart`, and the metadata
    /// segments found between scans (in order): entropy-coded data (with `FF 00` stuffing, RSTn and fill bytes)
    /// and the other segments between scans are skipped.
    private static func scanEnd(_ view: ByteReader, sosStart: Int) throws(MetadataStripError)
        -> (end: Int, removed: [(label: String, range: Range<Int>)])
    {
        var removed: [(label: String, range: Range<Int>)] = []
        let context = "after the SOS at offset \(sosStart) without an EOI (truncated)"
        var position = sosStart
        var inEntropyData = false
        while true {
            if inEntropyData {
                guard let next = JPEGSyntax.entropyCodedDataEnd(view.bytes, from: position) else {
                    throw failure("the file ends at offset \(view.count), \(context)")
                }
                position = next
                inEntropyData = false
            }
            let (marker, markerEnd) = try readMarker(view, at: position, context: context)
            if marker == JPEGMarker.eoi { return (markerEnd, removed) }
            if marker == JPEGMarker.soi { throw failure("an SOI at offset \(position) inside the image data") }
            if JPEGMarker.isStandalone(marker) {
                position = markerEnd
                continue
            }
            let end = try segmentEnd(view, marker: marker, start: position, lengthAt: markerEnd)
            if marker != JPEGMarker.sos {
                let label = JPEGMarker.label(marker, payload: view.bytes[(markerEnd + 2)..<end])
                if !JPEGMarker.keeps(marker, label: label) { removed.append((label, position..<end)) }
            }
            position = end
            inEntropyData = marker == JPEGMarker.sos
        }
    }

    static func failure(_ problem: String) -> MetadataStripError { MetadataStripError(detail: "JPEG: " + problem) }
}
