import MediaService

/// Checks a demo answer's body against a step's ``DemoScript/Check``.
enum DemoBodyCheck {
    /// The strings of the sample upload's EXIF that must never be served: the camera serial, make and model
    /// (the GPS block is found by its IFD pointer, ``hasGPSPointer(_:)``).
    static let locationMarkers = ["SN-4417-2208", "Acme Optics", "Pocket 9"]

    /// Why `body` fails `check`, or `nil` when it passes.
    static func failure(of check: DemoScript.Check, in body: [UInt8]) -> String? {
        if check.width != nil || check.heights != nil {
            guard let info = try? ImageValidator().validate(body) else { return "the body is not a valid image" }
            if let width = check.width, info.width != width { return "the image is \(info.width) px wide, not \(width)" }
            if let heights = check.heights, !heights.contains(info.height) {
                return "the image is \(info.height) px high, not \(heights.lowerBound)–\(heights.upperBound)"
            }
        }
        if check.withoutLocation {
            for marker in locationMarkers where contains(body, Array(marker.utf8)) {
                return "the body still carries \(marker)"
            }
            if contains(body, [0x88, 0x25]) && contains(body, Array("Exif".utf8)) && hasGPSPointer(body) {
                return "the body still carries an EXIF GPS block"
            }
        }
        return nil
    }

    /// Whether an EXIF block in `body` names a GPS IFD (tag 0x8825, either byte order).
    static func hasGPSPointer(_ body: [UInt8]) -> Bool {
        contains(body, [0x25, 0x88, 0x04, 0x00]) || contains(body, [0x88, 0x25, 0x00, 0x04])
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, Array(haystack[index..<(index + needle.count)]) == needle { return true }
            index += 1
        }
        return false
    }
}
