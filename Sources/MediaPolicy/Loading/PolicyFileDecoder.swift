import MediaCore

/// Decodes one parsed policy file into tiers and route drafts, collecting every problem.
struct PolicyFileDecoder {
    /// A route as far as it could be decoded; cross-file checks use whatever fields are valid.
    struct RouteDraft {
        var index: Int
        var name: String?
        var mount: String?
        var origin: String?
        var tier: String?
        var methods: Route.Methods = .read
        var targetedCacheControl: [String]?
        var originAuthorization: OriginAuthorization?
        var subjectHeader: String?
        var cors: CORSPolicy?
        var isComplete: Bool
    }

    let file: String
    var errors: [PolicyError] = []
    /// Tiers in document order; `tier` is `nil` when the tier had errors (the name still counts as defined).
    var tiers: [(name: String, tier: Tier?)] = []
    var routes: [RouteDraft] = []

    init(file: String) {
        self.file = file
    }

    mutating func decode(_ root: JSONValue) {
        guard let members = object(root, at: "", known: PolicyFormat.topLevelKeys) else { return }
        if let schema = members["$schema"] {
            _ = string(schema, at: "$schema", allowed: "a string (the JSON Schema URI, ignored)")
        }
        if let tiersValue = members["tiers"] { decodeTiers(tiersValue) }
        if let routesValue = members["routes"] { decodeRoutes(routesValue) }
    }

    // MARK: - Reporting

    mutating func report(
        _ code: PolicyError.Code, _ keyPath: String, value: JSONValue?, problem: String, allowed: String
    ) {
        errors.append(PolicyError(code, file: file, keyPath: keyPath, value: value?.rendered, problem: problem, allowed: allowed))
    }

    mutating func reportType(_ value: JSONValue, at keyPath: String, allowed: String) {
        report(.wrongType, keyPath, value: value, problem: "\(value.rendered) is \(value.typeName)", allowed: allowed)
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? segment(key) : "\(path).\(segment(key))"
    }

    /// `key` as a key-path segment: as is, or as a JSON string literal when it holds a control
    /// character, so that an error's description stays one line (`routes[0]."orig\n"`), or starts with a
    /// combining mark (or another grapheme extender), which would otherwise join the `: ` before it.
    static func segment(_ key: String) -> String {
        let needsQuotes = key.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            || key.unicodeScalars.first?.properties.isGraphemeExtend == true
        return needsQuotes ? JSONValue.quote(key) : key
    }

    // MARK: - Typed readers (each reports its own problem and returns nil)

    /// The members of an object by key (first occurrence), after reporting unknown and repeated keys. `allowed` is the
    /// text a value of another type is reported with; default: `an object with keys <known>`.
    mutating func object(
        _ value: JSONValue, at path: String, known: [String], allowed: String? = nil
    ) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            reportType(value, at: path, allowed: allowed ?? "an object with keys " + known.joined(separator: ", "))
            return nil
        }
        var result: [String: JSONValue] = [:]
        for member in members {
            let keyPath = PolicyFileDecoder.join(path, member.key)
            guard known.contains(member.key) else {
                let hint = KeySuggestion.hint(for: member.key, in: known)
                report(.unknownKey, keyPath, value: member.value, problem: "unknown key\(hint)",
                       allowed: known.joined(separator: ", "))
                continue
            }
            guard result[member.key] == nil else {
                report(.duplicateKey, keyPath, value: member.value, problem: "duplicate key", allowed: "each key once per object")
                continue
            }
            result[member.key] = member.value
        }
        return result
    }

    mutating func string(_ value: JSONValue, at path: String, allowed: String) -> String? {
        guard case .string(let text) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        return text
    }

    /// One of an enum's raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: JSONValue, at path: String, as: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let allowed = names.joined(separator: ", ")
        guard let text = string(value, at: path, allowed: allowed) else { return nil }
        guard let result = Choice(rawValue: text) else {
            let hint = KeySuggestion.hint(for: text, in: names)
            report(.invalidValue, path, value: value, problem: "\(value.rendered) is not allowed\(hint)", allowed: allowed)
            return nil
        }
        return result
    }

    /// An integer in `range`; `unit` ends the allowed text (`seconds`, `bytes`, `pixels`).
    mutating func integer(_ value: JSONValue, at path: String, range: ClosedRange<Int>, unit: String) -> Int? {
        let allowed = "an integer from \(range.lowerBound) to \(range.upperBound) (\(unit))"
        guard case .number(let text) = value, value.typeName == "an integer" else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard let number = Int(text), range.contains(number) else {
            report(.outOfRange, path, value: value, problem: "\(text) is out of range", allowed: allowed)
            return nil
        }
        return number
    }

    /// A number (integer or decimal) in `lower<..upper`.
    mutating func positiveNumber(_ value: JSONValue, at path: String, upTo upper: Double, unit: String) -> Double? {
        let allowed = "a number greater than 0 and at most \(Int(upper)) (\(unit))"
        guard case .number(let text) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard let number = Double(text), number > 0, number <= upper else {
            report(.outOfRange, path, value: value, problem: "\(text) is out of range", allowed: allowed)
            return nil
        }
        return number
    }
}
