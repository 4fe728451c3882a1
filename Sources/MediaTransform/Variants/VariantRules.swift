/// The checks of ``VariantQuery`` for one declaration, and the rule texts its errors carry.
struct VariantRules: Sendable {
    let declaration: VariantDeclaration
    /// Pass-through names, variant names excluded, first spelling kept, in given order.
    let passThroughNames: [String]
    let passThrough: Set<String>
    let avifAvailable: Bool
    let jxlAvailable: Bool
    /// Declared formats, each once, in declared order.
    let formats: [OutputFormat]

    init(declaration: VariantDeclaration, passThrough: [String], avifAvailable: Bool, jxlAvailable: Bool = true) {
        self.jxlAvailable = jxlAvailable
        self.declaration = declaration
        var seen: Set<String> = []
        passThroughNames = passThrough.filter { VariantParameter(rawValue: $0) == nil && seen.insert($0).inserted }
        self.passThrough = seen
        self.avifAvailable = avifAvailable
        var formatsSeen: Set<OutputFormat> = []
        formats = declaration.formats.filter { formatsSeen.insert($0).inserted }
    }

    // MARK: Rule texts

    /// `a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v`.
    var parameterRule: String {
        let names = VariantParameter.allCases.map(\.rawValue) + passThroughNames.map { QueryItem.shown($0.utf8) }
        return "a parameter must be one of " + names.joined(separator: ", ")
    }

    /// `w × dpr must be one of 72, 144, 288`.
    var widthRule: String { "w × dpr must be one of " + VariantRules.list(declaration.widths) }
    var heightRule: String { "h × dpr must be one of " + VariantRules.list(declaration.allowedHeights) }
    var dprRule: String {
        declaration.effectiveMaxDpr == 1 ? "dpr must be 1" : "dpr must be an integer from 1 to \(declaration.effectiveMaxDpr)"
    }
    static let qualityRule = "q must be an integer from 1 to 100"
    /// `w must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)`.
    static func integerRule(_ name: String) -> String {
        "\(name) must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)"
    }
    static let fitRule = "fit must be inside or cover"
    static let gravityRule = "gravity must be centre, attention or entropy"
    static let infoRule = "info must be 1"
    /// `profile must be one of android12, ios17` (or `no profile is declared`).
    var profileRule: String {
        let names = declaration.clientProfiles.keys.sorted()
        return names.isEmpty ? "no profile is declared" : "profile must be one of " + names.joined(separator: ", ")
    }

    /// The formats `fmt` may name: the declared ones (without `avif` when it cannot be encoded and WebP is
    /// not declared to stand in) and `auto`.
    var requestableFormats: [String] {
        let avifRefused = !avifAvailable && !formats.contains(.webp)
        return formats.filter { !(avifRefused && $0 == .avif) && !(!jxlAvailable && $0 == .jxl) }.map(\.rawValue) + ["auto"]
    }
    var formatRule: String {
        var rule = "fmt must be one of " + requestableFormats.joined(separator: ", ")
        if !avifAvailable && formats.contains(.avif) && !formats.contains(.webp) {
            rule += " (AVIF encoding is unavailable)"
        }
        if !jxlAvailable && formats.contains(.jxl) { rule += " (JPEG XL encoding is unavailable)" }
        return rule
    }

    static func list(_ values: [Int]) -> String {
        values.isEmpty ? "(none declared)" : values.map(String.init).joined(separator: ", ")
    }

    // MARK: Checks

    /// Checks what one item can show on its own: integer syntax and ranges, `fit` and `fmt` names.
    func checkValue(of parameter: VariantParameter, _ item: QueryItem) throws(VariantError) {
        let ok: Bool
        let rule: String
        switch parameter {
        case .w, .h:
            // A malformed number is named as such; a well-formed one is checked against the declared sizes later.
            ok = QueryItem.positiveInteger(item.value) != nil
            rule = VariantRules.integerRule(parameter.rawValue)
        case .dpr:
            ok = QueryItem.positiveInteger(item.value).map { $0 <= declaration.effectiveMaxDpr } ?? false
            rule = dprRule
        case .q:
            ok = QueryItem.positiveInteger(item.value).map { $0 <= 100 } ?? false
            rule = VariantRules.qualityRule
        case .fit:
            ok = item.value.map { Fit(rawValue: String(decoding: $0, as: UTF8.self)) != nil } ?? false
            rule = VariantRules.fitRule
        case .gravity:
            ok = item.value.map { Gravity(rawValue: String(decoding: $0, as: UTF8.self)) != nil } ?? false
            rule = VariantRules.gravityRule
        case .profile:
            ok = item.value.map { declaration.clientProfiles[String(decoding: $0, as: UTF8.self)] != nil } ?? false
            rule = profileRule
        case .fmt:
            ok = item.value.map { requestableFormats.contains(String(decoding: $0, as: UTF8.self)) } ?? false
            rule = formatRule
        case .info:
            ok = item.value.map { Array($0) == Array("1".utf8) } ?? false
            rule = VariantRules.infoRule
        }
        if !ok { throw VariantError(subject: item.shown, rule: rule) }
    }

    /// The items `parameters` that are present, in query order, joined with `&`.
    static func subject(_ found: [VariantParameter: QueryItem], _ parameters: [VariantParameter]) -> String {
        parameters.compactMap { found[$0] }.sorted { $0.index < $1.index }.map(\.shown).joined(separator: "&")
    }

    /// The output width's target in pixels and the hint fields consulted: `w` × `dpr` with `dpr`; on a
    /// declaration with client hints, `Sec-CH-Width`, else `w` × `Sec-CH-DPR` (clamped to 1…`maxDpr`, rounded up),
    /// else `w`; `nil` when the width must be a declared one as it is (no `dpr`, no client hints).
    func ladderTarget(w: Int, _ found: [VariantParameter: QueryItem], hints: ClientHints?) -> (target: Int, hints: [String])? {
        if let dpr = QueryItem.positiveInteger(found[.dpr]?.value) {
            let (target, overflow) = w.multipliedReportingOverflow(by: dpr)
            return (overflow ? Int.max : target, [])
        }
        guard declaration.clientHints else { return nil }
        if let width = hints?.width { return (width, [ClientHints.widthField]) }
        let consulted = [ClientHints.widthField, ClientHints.dprField]
        guard let dpr = hints?.dpr else { return (w, consulted) }
        let scaled = (Double(w) * min(max(dpr, 1), Double(declaration.effectiveMaxDpr))).rounded(.up)
        return (scaled >= Double(Int.max) ? Int.max : Int(scaled), consulted)
    }

    /// A profile's format at `width`: the first it lists that the tier declares and can encode there (AVIF within
    /// `maxAVIFWidth`, AVIF and JPEG XL only with their encoders).
    func profileFormat(_ name: String, width: Int, subject: String) throws(VariantError) -> FormatChoice {
        let listed = declaration.clientProfiles[name] ?? []
        let usable = listed.first { format in
            formats.contains(format) && !(format == .avif && (!avifAvailable || width > declaration.maxAVIFWidth))
                && !(format == .jxl && !jxlAvailable)
        }
        guard let usable else {
            throw VariantError(subject: subject, rule: "none of the profile's formats (" + listed.map(\.rawValue).joined(separator: ", ")
                               + ") can be served at this width")
        }
        return .format(usable)
    }

    /// The spec of items that each passed ``checkValue(of:_:)``, after the checks between them.
    func spec(_ found: [VariantParameter: QueryItem], accept: String?, hints: ClientHints? = nil) throws(VariantError)
        -> (spec: VariantSpec, negotiated: Bool, hintFields: [String]) {
        if found[.info] != nil {
            guard found.count == 1 else {
                throw VariantError(subject: VariantRules.subject(found, VariantParameter.allCases),
                                   rule: "info=1 takes no other variant parameter: it describes the source")
            }
            return (.info, false, [])
        }
        guard let wItem = found[.w], let w = QueryItem.positiveInteger(wItem.value) else {
            throw VariantError(subject: VariantRules.subject(found, VariantParameter.allCases),
                               rule: "a variant needs w, with w × dpr one of " + VariantRules.list(declaration.widths))
        }
        let dpr = QueryItem.positiveInteger(found[.dpr]?.value) ?? 1
        let width: Int
        var hintFields: [String] = []
        let ladder = ladderTarget(w: w, found, hints: hints)
        if let ladder, let step = VariantDeclaration.ladder(ladder.target, in: declaration.widths) {
            width = step
            hintFields = ladder.hints
        } else {
            let (product, widthOverflow) = w.multipliedReportingOverflow(by: dpr)
            guard !widthOverflow, declaration.widths.contains(product) else {
                throw VariantError(subject: VariantRules.subject(found, [.w, .dpr]), rule: widthRule)
            }
            width = product
        }
        var height: Int?
        if let h = QueryItem.positiveInteger(found[.h]?.value) {
            let value: Int
            if ladder != nil {
                // The height scales as the width did (the box keeps the asked aspect), then takes its ladder step.
                let scaled = (Double(h) * Double(width) / Double(w)).rounded(.up)
                let target = scaled >= Double(Int.max) ? Int.max : Int(scaled)
                guard let step = VariantDeclaration.ladder(target, in: declaration.allowedHeights) else {
                    throw VariantError(subject: VariantRules.subject(found, [.h, .dpr]), rule: heightRule)
                }
                value = step
            } else {
                let (product, overflow) = h.multipliedReportingOverflow(by: dpr)
                guard !overflow, declaration.allowedHeights.contains(product) else {
                    throw VariantError(subject: VariantRules.subject(found, [.h, .dpr]), rule: heightRule)
                }
                value = product
            }
            let (pixels, pixelsOverflow) = width.multipliedReportingOverflow(by: value)
            guard !pixelsOverflow, pixels <= declaration.maxOutputPixels else {
                throw VariantError(subject: VariantRules.subject(found, [.w, .h, .dpr]),
                                   rule: "(w × dpr) × (h × dpr) must be at most \(declaration.maxOutputPixels)")
            }
            height = value
        }
        let fit = found[.fit].flatMap { item in item.value.flatMap { Fit(rawValue: String(decoding: $0, as: UTF8.self)) } }
        let gravity = found[.gravity].flatMap { item in
            item.value.flatMap { Gravity(rawValue: String(decoding: $0, as: UTF8.self)) }
        }
        let requested = QueryItem.positiveInteger(found[.q]?.value)
        let quality = requested ?? min(100, max(1, declaration.quality))
        // Without q, the tier's quality for each format (the same number means different fidelity in each codec).
        let qualities = requested == nil ? declaration.qualities?.mapValues { min(100, max(1, $0)) } : nil

        let format: FormatChoice
        var negotiated = false
        if let profileItem = found[.profile] {
            if found[.fmt] != nil {
                throw VariantError(subject: VariantRules.subject(found, [.fmt, .profile]),
                                   rule: "fmt and profile cannot be combined: the profile chooses the format")
            }
            let name = profileItem.value.map { String(decoding: $0, as: UTF8.self) } ?? ""
            format = try profileFormat(name, width: width, subject: profileItem.shown)
        } else {
            switch found[.fmt]?.value.map({ String(decoding: $0, as: UTF8.self) }) {
            case nil:
                format = .source
            case "auto":
                format = FormatNegotiation.choose(accept: accept, declared: formats, width: width,
                                                  maxAVIFWidth: declaration.maxAVIFWidth, avifAvailable: avifAvailable,
                                                  jxlAvailable: jxlAvailable)
                negotiated = true
            case let name?:
                guard let named = OutputFormat(rawValue: name) else {  // checkValue admitted only requestable names
                    throw VariantError(subject: VariantRules.subject(found, [.fmt]), rule: formatRule)
                }
                if named == .avif && !avifAvailable {
                    format = .format(.webp)
                } else if named == .avif && width > declaration.maxAVIFWidth {
                    throw VariantError(subject: VariantRules.subject(found, [.fmt, .w, .dpr]),
                                       rule: "with fmt=avif, w × dpr must be at most \(declaration.maxAVIFWidth)")
                } else {
                    format = .format(named)
                }
            }
        }
        var spec = VariantSpec(width: width, height: height, fit: fit ?? .inside, quality: quality, format: format,
                               gravity: gravity ?? .centre)
        spec.qualities = qualities
        spec.avifEffort = declaration.avifEffort
        spec.animation = declaration.animation
        return (spec, negotiated, hintFields)
    }
}
