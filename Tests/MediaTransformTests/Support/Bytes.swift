/// Byte-level checks on encoded outputs.
enum Bytes {
    /// Whether `needle` (its UTF-8 bytes) occurs anywhere in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return false }
        return (0...(haystack.count - pattern.count)).contains { start in
            haystack[start] == pattern[0] && haystack[start..<start + pattern.count].elementsEqual(pattern)
        }
    }

    /// Markers of metadata in any of the output formats: EXIF (`Exif` in JPEG APP1, AVIF items and
    /// WebP payloads; the WebP `EXIF` and PNG `eXIf` chunks), XMP (its namespace; the WebP `XMP `
    /// chunk), ICC profiles (JPEG `ICC_PROFILE`, PNG `iCCP`, WebP `ICCP`, and `acsp`, the signature
    /// inside every ICC profile), IPTC (Photoshop `8BIM`) and PNG text chunks.
    static let metadataMarkers = [
        "Exif", "EXIF", "eXIf", "http://ns.adobe.com/xap", "XMP ", "ICC_PROFILE", "iCCP", "ICCP", "acsp",
        "8BIM", "Photoshop", "tEXt", "zTXt", "iTXt",
    ]

    /// The markers of ``metadataMarkers`` that occur in `bytes`.
    static func metadataFound(in bytes: [UInt8]) -> [String] {
        metadataMarkers.filter { contains(bytes, $0) }
    }
}
