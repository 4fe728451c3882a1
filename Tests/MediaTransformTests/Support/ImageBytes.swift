import MediaCore
@testable import MediaTransform

/// Builders for synthetic image containers, written from the format specifications (not from the code
/// under test, except PNG's CRC, which ``CRC32Tests`` checks against published values).
enum ImageBytes {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func u16be(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u32be(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
    static func u32le(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) } }

    // MARK: JPEG

    /// A JPEG segment: `FF <marker>`, the 16-bit length (payload + 2), the payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + u16be(payload.count + 2) + payload
    }

    /// An APP1 Exif segment around `tiff`.
    static func exifSegment(_ tiff: [UInt8]) -> [UInt8] { segment(0xE1, ascii("Exif") + [0, 0] + tiff) }

    /// `bytes` with `inserted` placed at `offset`.
    static func insert(_ inserted: [UInt8], into bytes: [UInt8], at offset: Int) -> [UInt8] {
        Array(bytes[..<offset]) + inserted + Array(bytes[offset...])
    }

    /// The offset of the first SOS, walking segments by their lengths from SOI.
    static func firstSOS(_ jpeg: [UInt8]) -> Int? {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            if jpeg[position + 1] == 0xDA { return position }
            position += 2 + Int(jpeg[position + 2]) << 8 + Int(jpeg[position + 3])
        }
        return nil
    }

    /// The markers of the segments before the first SOS (`[0xE0, 0xDB, …]`).
    static func markersBeforeSOS(_ jpeg: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = []
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            markers.append(jpeg[position + 1])
            position += 2 + Int(jpeg[position + 2]) << 8 + Int(jpeg[position + 3])
        }
        return markers
    }

    // MARK: TIFF / EXIF

    /// A TIFF structure with IFD0 holding `entries` (tag, type, count, value bytes in the file's order;
    /// values over 4 bytes go to a data area after the IFD), next-IFD 0.
    static func tiff(littleEndian: Bool, _ entries: [(tag: Int, type: Int, count: Int, value: [UInt8])]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? u16be(v).reversed() : u16be(v) }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u32le(v) : u32be(v) }
        var out = ascii(littleEndian ? "II" : "MM") + u16(42) + u32(8) + u16(entries.count)
        var data: [UInt8] = []
        let dataStart = 8 + 2 + entries.count * 12 + 4
        for entry in entries {
            out += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if entry.value.count <= 4 {
                out += entry.value + Array(repeating: 0, count: 4 - entry.value.count)
            } else {
                out += u32(dataStart + data.count)
                data += entry.value
            }
        }
        return out + u32(0) + data
    }

    /// A camera-like EXIF: Make, Orientation (if given), a GPS IFD pointer (0x8825) and a serial number string.
    static func cameraTIFF(littleEndian: Bool, orientation: Int?) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? u16be(v).reversed() : u16be(v) }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u32le(v) : u32be(v) }
        var entries: [(tag: Int, type: Int, count: Int, value: [UInt8])] = [(0x010F, 2, 12, ascii("Acme Optics") + [0])]
        if let orientation { entries.append((0x0112, 3, 1, u16(orientation))) }
        entries.append((0x8825, 4, 1, u32(0)))
        entries.append((0xA431, 2, 13, ascii("SN-4417-2208") + [0]))
        return tiff(littleEndian: littleEndian, entries)
    }

    /// The 26-byte TIFF structure with only Orientation, written out by hand.
    static func minimalTIFF(littleEndian: Bool, orientation: UInt8) -> [UInt8] {
        littleEndian
            ? [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
               0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
            : [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
               0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    }

    // MARK: PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        u32be(data.count) + ascii(type) + data + u32be(Int(CRC32.checksum(ascii(type) + data)))
    }

    /// IHDR of a 1×1 8-bit greyscale image.
    static let pngIHDR = pngChunk("IHDR", u32be(1) + u32be(1) + [8, 0, 0, 0, 0])
    /// IDAT: a zlib stream (one stored block) of the single scanline `00 00` (filter none, black pixel).
    static let pngIDAT = pngChunk("IDAT", [0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
    static let pngIEND = pngChunk("IEND", [])

    // MARK: RIFF / WebP

    /// A RIFF chunk: FourCC, 32-bit little-endian size, data, a pad byte when the size is odd.
    static func riffChunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
        ascii(fourCC) + u32le(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    static func webp(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = ascii("WEBP") + chunks.flatMap { $0 }
        return ascii("RIFF") + u32le(body.count) + body
    }

    /// VP8X: flags, 3 reserved bytes, canvas width − 1 and height − 1 (24-bit little-endian each).
    static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        riffChunk("VP8X", [flags, 0, 0, 0] + Array(u32le(width - 1).prefix(3)) + Array(u32le(height - 1).prefix(3)))
    }

    // MARK: ISOBMFF

    static func box(_ type: String, _ content: [UInt8]) -> [UInt8] { u32be(8 + content.count) + ascii(type) + content }
    static func fullBox(_ type: String, version: UInt8, _ content: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + content) }

    /// An `infe` of version 2: item_ID, item_protection_index 0, item_type, item_name, and a content type for `mime`.
    static func infe(id: Int, type: String, contentType: String? = nil) -> [UInt8] {
        fullBox("infe", version: 2, u16be(id) + u16be(0) + ascii(type) + [0] + (contentType.map { ascii($0) + [0] } ?? []))
    }

    /// `ftyp` (major brand, minor version 0, compatible brands), `meta` (hdlr `pict`, `iinf` with `items`), `mdat`.
    static func heif(brand: String = "avif", compatible: [String] = ["avif", "mif1", "miaf"], items: [[UInt8]]) -> [UInt8] {
        let ftyp = box("ftyp", ascii(brand) + u32be(0) + compatible.flatMap(ascii))
        let hdlr = fullBox("hdlr", version: 0, u32be(0) + ascii("pict") + Array(repeating: 0, count: 12) + [0])
        let iinf = fullBox("iinf", version: 0, u16be(items.count) + items.flatMap { $0 })
        return ftyp + box("meta", [0, 0, 0, 0] + hdlr + iinf) + box("mdat", [1, 2, 3, 4])
    }
}

extension Array where Element == UInt8 {
    /// How many times `needle` occurs (overlapping).
    func occurrences(of needle: [UInt8]) -> Int {
        guard !needle.isEmpty, count >= needle.count else { return 0 }
        return (0...(count - needle.count)).filter { self[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }

    func contains(bytes needle: [UInt8]) -> Bool { occurrences(of: needle) > 0 }
}
