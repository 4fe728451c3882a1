import MediaCore

/// JPEG marker codes (ITU-T T.81 Table B.1) and what stripping does with each segment.
enum JPEGMarker {
    static let soi = 0xD8, eoi = 0xD9, sos = 0xDA, com = 0xFE, app0 = 0xE0, app1 = 0xE1, app2 = 0xE2

    /// Markers without a length (T.81 §B.1.1.3): TEM and RST0–RST7 (SOI and EOI are handled apart).
    static func isStandalone(_ marker: Int) -> Bool { JPEGSyntax.isStandalone(UInt8(truncatingIfNeeded: marker)) }

    /// `APP1`, `SOF0`, `DQT`, `COM`, …, or `0xFFxx`.
    static func name(_ marker: Int) -> String {
        switch marker {
        case 0xE0...0xEF: "APP\(marker - 0xE0)"
        case 0xC4: "DHT"
        case 0xC8: "JPG"
        case 0xCC: "DAC"
        case 0xC0...0xCF: "SOF\(marker - 0xC0)"
        case 0xDA: "SOS"
        case 0xDB: "DQT"
        case 0xDC: "DNL"
        case 0xDD: "DRI"
        case 0xFE: "COM"
        default: Hex.text(0xFF00 | marker, digits: 4)
        }
    }

    /// The identifiers (NUL-terminated) that name an APPn segment's content, and the label a removed one gets.
    static let identifiers: [(marker: Int, prefix: String, label: String)] = [
        (0xE1, "Exif\0", "APP1 Exif"),
        (0xE1, "http://ns.adobe.com/xap/1.0/\0", "APP1 XMP"),
        (0xE1, "http://ns.adobe.com/xmp/extension/\0", "APP1 XMP extension"),
        (0xE2, "ICC_PROFILE\0", "APP2 ICC_PROFILE"),
        (0xE2, "MPF\0", "APP2 MPF"),
        (0xE2, "FPXR\0", "APP2 FlashPix"),
        (0xEC, "Ducky", "APP12 Ducky"),
        (0xED, "Photoshop 3.0\0", "APP13 Photoshop"),
        (0xEE, "Adobe", "APP14 Adobe"),
    ]

    /// The segment's label: the identifier's when one matches, else the marker's name.
    static func label(_ marker: Int, payload: ArraySlice<UInt8>) -> String {
        identifiers.first { $0.marker == marker && payload.starts(with: Array($0.prefix.utf8)) }?.label ?? name(marker)
    }

    /// Whether a segment before the first SOS is kept: everything but APP1, APP3–APP13, APP15 and COM;
    /// APP2 only as ICC_PROFILE, APP14 only as Adobe. APP0 (JFIF, JFXX) is kept.
    static func keeps(_ marker: Int, label: String) -> Bool {
        switch marker {
        case app0: true
        case app2: label == "APP2 ICC_PROFILE"
        case 0xEE: label == "APP14 Adobe"
        case 0xE1...0xEF, com: false
        default: true
        }
    }
}
