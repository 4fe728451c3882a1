/// Reads an ICC profile's description tag (ICC.1:2010 §9.2.41 `desc`, v2 `textDescriptionType` or v4
/// `multiLocalizedUnicodeType`) to recognise the standard sRGB profiles, whose conversion to sRGB is the
/// identity: ``ColourStep`` skips it (about 17 % of a 1000×872 derivation) and ``StripStep`` drops the profile.
enum ICCProfileDescription {
    /// The descriptions of the sRGB profiles cameras, editors and libraries embed (HP/Microsoft's, its black-
    /// scaled variant, libvips's and lcms's built-ins).
    static let sRGBDescriptions: Set<String> = [
        "sRGB IEC61966-2.1", "sRGB IEC61966-2-1 black scaled", "sRGB built-in", "sRGB", "sRGB v4 ICC preference perceptual intent beta",
    ]

    /// Whether `profile` is an RGB display profile described as one of ``sRGBDescriptions``. Bounds-checked;
    /// `false` for anything malformed.
    static func isSRGB(_ profile: [UInt8]) -> Bool {
        guard let text = description(profile) else { return false }
        return sRGBDescriptions.contains(text)
    }

    /// The profile's description, or `nil` when it is not an RGB profile or has no readable `desc` tag.
    static func description(_ profile: [UInt8]) -> String? {
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return Int(profile[at]) << 24 | Int(profile[at + 1]) << 16 | Int(profile[at + 2]) << 8 | Int(profile[at + 3])
        }
        func tag(_ at: Int) -> String? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return String(decoding: profile[at..<(at + 4)], as: UTF8.self)
        }
        guard profile.count >= 132, tag(16) == "RGB ", tag(36) == "acsp", let count = u32(128), count <= 256 else { return nil }
        for index in 0..<count {
            let entry = 132 + index * 12
            guard tag(entry) == "desc", let offset = u32(entry + 4), let size = u32(entry + 8),
                  offset + size <= profile.count, size >= 12 else { continue }
            switch tag(offset) {
            case "desc":
                guard let length = u32(offset + 8), length >= 1, offset + 12 + length <= offset + size else { return nil }
                let bytes = profile[(offset + 12)..<(offset + 12 + length)].prefix { $0 != 0 }
                return String(decoding: bytes, as: UTF8.self)
            case "mluc":
                guard let records = u32(offset + 8), records >= 1, let length = u32(offset + 20),
                      let start = u32(offset + 24), offset + start + length <= offset + size, length % 2 == 0 else { return nil }
                var units: [UInt16] = []
                var at = offset + start
                while at + 1 < offset + start + length {
                    units.append(UInt16(profile[at]) << 8 | UInt16(profile[at + 1]))
                    at += 2
                }
                return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
            default:
                return nil
            }
        }
        return nil
    }
}
