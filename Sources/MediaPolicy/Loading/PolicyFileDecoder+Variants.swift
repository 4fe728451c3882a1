import MediaCore

extension PolicyFileDecoder {
    /// Decodes a tier's `variants` object (docs/variants.md), reporting every problem; `nil` when any key had one.
    mutating func variants(_ value: JSONValue, at path: String) -> Tier.Variants? {
        let before = errors.count
        guard let keys = object(value, at: path, known: PolicyFormat.variantKeys) else { return nil }
        func at(_ key: String) -> String { "\(path).\(key)" }
        for key in PolicyFormat.requiredVariantKeys where keys[key] == nil {
            report(.missingKey, at(key), value: nil, problem: "missing required key",
                   allowed: key == "widths" ? Self.sizesAllowed : Self.formatsAllowed)
        }
        var widths: [Int]?, heights: [Int]?, formats: [String]?
        if let value = keys["widths"] { widths = sizes(value, at: at("widths")) }
        if let value = keys["heights"] { heights = sizes(value, at: at("heights")) }
        if let value = keys["formats"] { formats = self.formats(value, at: at("formats")) }
        var variants = Tier.Variants(widths: widths ?? [], heights: heights, formats: formats ?? [])
        if let value = keys["maxDpr"], let number = integer(value, at: at("maxDpr"), range: 1...PolicyFormat.maximumDpr,
                                                             unit: "device-pixel ratio") {
            variants.maxDpr = number
        }
        if let value = keys["quality"] {
            if case .object = value {
                variants.qualities = qualities(value, at: at("quality"))
            } else if let number = integer(value, at: at("quality"), range: 1...100,
                                           unit: "encoder quality, or an object of it per format") {
                variants.quality = number
            }
        }
        if let value = keys["avifEffort"], let number = integer(value, at: at("avifEffort"), range: 0...9,
                                                                 unit: "0 fastest, 9 smallest") {
            variants.avifEffort = number
        }
        let dimension = Tier.Variants.maximumDimension
        if let value = keys["maxOutputPixels"],
           let number = integer(value, at: at("maxOutputPixels"), range: 1...(dimension * dimension), unit: "pixels") {
            variants.maxOutputPixels = number
        }
        if let value = keys["maxAVIFWidth"], let number = integer(value, at: at("maxAVIFWidth"), range: 1...dimension, unit: "pixels") {
            variants.maxAVIFWidth = number
        }
        if let value = keys["clientHints"], let flag = boolean(value, at: at("clientHints")) {
            variants.clientHints = flag
        }
        if let value = keys["clientProfiles"], let profiles = clientProfiles(value, at: at("clientProfiles")) {
            variants.clientProfiles = profiles
            for name in profiles.keys.sorted() where !profiles[name]!.contains(where: variants.formats.contains) {
                report(.contradiction, "\(at("clientProfiles")).\(name)", value: .string("[…]"),
                       problem: "no format it lists is one of the tier's formats (" + variants.formats.joined(separator: ", ") + ")",
                       allowed: "a list with at least one of the tier's formats")
            }
        }
        if errors.count == before, let cap = variants.maxOutputPixels, let widest = variants.widths.last, widest > cap {
            report(.contradiction, at("maxOutputPixels"), value: keys["maxOutputPixels"],
                   problem: "\(cap) pixels cannot hold the width \(widest) (one row of it is \(widest) pixels): that width could never be served",
                   allowed: "at least the largest width, \(widest), or widths that fit")
        }
        return errors.count == before ? variants : nil
    }

    /// Decodes a tier's `animation` object (docs/variants.md "Animation"); `nil` when a key had a problem.
    mutating func animation(_ value: JSONValue, at path: String) -> Tier.Animation? {
        let before = errors.count
        guard let keys = object(value, at: path, known: PolicyFormat.animationKeys) else { return nil }
        var animation = Tier.Animation()
        if let member = keys["maxFrames"], let number = integer(member, at: "\(path).maxFrames",
                                                                range: 2...Tier.Animation.maximumFrames, unit: "frames") {
            animation.maxFrames = number
        }
        if let member = keys["maxPixels"], let number = integer(member, at: "\(path).maxPixels",
                                                                range: 1...Tier.Animation.maximumPixels,
                                                                unit: "source pixels: width × height × frames") {
            animation.maxPixels = number
        }
        return errors.count == before ? animation : nil
    }

    static let sizesAllowed = "a non-empty array of at most \(PolicyFormat.maximumVariantSizes) distinct integers from 1 to \(Tier.Variants.maximumDimension) (pixels), ascending"
    static let formatsAllowed = "a non-empty array of distinct " + Tier.Variants.formatNames.joined(separator: ", ")

    private mutating func sizes(_ value: JSONValue, at path: String) -> [Int]? {
        let allowed = Self.sizesAllowed
        guard case .array(let elements) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard !elements.isEmpty, elements.count <= PolicyFormat.maximumVariantSizes else {
            report(.invalidValue, path, value: value,
                   problem: elements.isEmpty ? "an empty array allows no variant" : "\(elements.count) entries are too many",
                   allowed: allowed)
            return nil
        }
        var out: [Int] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let number = integer(element, at: elementPath, range: 1...Tier.Variants.maximumDimension, unit: "pixels")
            else {
                valid = false
                continue
            }
            if let last = out.last, number <= last {
                report(.invalidValue, elementPath, value: element,
                       problem: number == last ? "\(number) is listed twice" : "\(number) is smaller than the entry before it",
                       allowed: allowed)
                valid = false
                continue
            }
            out.append(number)
        }
        return valid ? out : nil
    }

    /// `quality` as an object: format names to 1–100.
    private mutating func qualities(_ value: JSONValue, at path: String) -> [String: Int]? {
        guard let keys = object(value, at: path, known: Tier.Variants.formatNames,
                                allowed: "an object of format names (" + Tier.Variants.formatNames.joined(separator: ", ")
                                    + ") to an encoder quality from 1 to 100") else { return nil }
        guard case .object(let members) = value, !members.isEmpty else {
            report(.invalidValue, path, value: value, problem: "an empty object sets no quality",
                   allowed: "an integer from 1 to 100, or an object of format names to one")
            return nil
        }
        var out: [String: Int] = [:]
        let before = errors.count
        for name in Tier.Variants.formatNames {
            guard let member = keys[name] else { continue }
            if let number = integer(member, at: PolicyFileDecoder.join(path, name), range: 1...100, unit: "encoder quality") {
                out[name] = number
            }
        }
        return errors.count == before ? out : nil
    }

    static let profilesAllowed = "an object of at most \(Tier.Variants.maximumClientProfiles) profiles, each named by 1 to 32 of a-z 0-9 - and listing formats in order of preference"

    /// `clientProfiles`: profile names (`[a-z0-9-]{1,32}`) to non-empty lists of distinct format names.
    private mutating func clientProfiles(_ value: JSONValue, at path: String) -> [String: [String]]? {
        guard case .object(let members) = value else {
            reportType(value, at: path, allowed: Self.profilesAllowed)
            return nil
        }
        guard members.count <= Tier.Variants.maximumClientProfiles else {
            report(.invalidValue, path, value: value,
                   problem: "\(members.count) profiles are more than \(Tier.Variants.maximumClientProfiles)", allowed: Self.profilesAllowed)
            return nil
        }
        var out: [String: [String]] = [:]
        var valid = true
        for member in members {
            let memberPath = PolicyFileDecoder.join(path, member.key)
            let name = member.key
            guard (1...32).contains(name.utf8.count),
                  name.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }) else {
                report(.invalidValue, memberPath, value: .string(name), problem: "\(JSONValue.quote(name)) is not a profile name",
                       allowed: Self.profilesAllowed)
                valid = false
                continue
            }
            guard out[name] == nil else {
                report(.duplicateKey, memberPath, value: member.value, problem: "duplicate key", allowed: "each key once per object")
                valid = false
                continue
            }
            guard let formats = formats(member.value, at: memberPath) else {
                valid = false
                continue
            }
            out[name] = formats
        }
        return valid ? out : nil
    }

    private mutating func formats(_ value: JSONValue, at path: String) -> [String]? {
        let allowed = Self.formatsAllowed
        return distinctNames(
            value, at: path, names: Tier.Variants.formatNames, allowed: allowed,
            emptyProblem: "an empty array allows no variant")
    }
}
