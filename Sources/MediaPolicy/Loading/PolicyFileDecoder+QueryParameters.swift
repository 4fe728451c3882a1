import MediaCore

extension PolicyFileDecoder {
    /// `ignoredQueryParameters` (`allowsPrefix`: an entry may end with `*`) or `passQueryParameters`: an array of
    /// at most ``PolicyFormat/maximumQueryParameters`` distinct query parameter names. The first problem is
    /// reported and ends the list (`nil`).
    mutating func queryParameterList(_ value: JSONValue, at path: String, allowsPrefix: Bool) -> [String]? {
        let name = "query parameter names (1 to 64 letters, digits, '-', '.', '_' or '~')"
        let allowed = "an array of at most \(PolicyFormat.maximumQueryParameters) distinct \(name)"
            + (allowsPrefix ? ", each may end with '*' to match a prefix (\"utm_*\")" : "")
        return distinctStrings(value, at: path, maximum: PolicyFormat.maximumQueryParameters, allowed: allowed) { text, element in
            let isPrefix = allowsPrefix && text.hasSuffix("*")
            let base = isPrefix ? String(text.dropLast()) : text
            guard !PolicyText.isQueryName(base) else { return nil }
            return isPrefix && base.isEmpty ? "\"*\" alone would match every parameter"
                : "\(element.rendered) is not a valid parameter name"
        }
    }

    /// The query parameter lists against the tier's other keys and each other (docs/policy-format.md, "Query
    /// parameters"), every contradiction reported, each with its index. Runs only on a tier whose keys were each valid.
    mutating func checkQueryParameterContradictions(_ tier: Tier, at path: String) {
        let ignoredPath = "\(path).ignoredQueryParameters", passPath = "\(path).passQueryParameters"
        if !tier.passQueryParameters.isEmpty, tier.variants == nil {
            report(.contradiction, passPath, value: .string("[…]"),
                   problem: "without variants every query parameter is keyed and passed to the origin already",
                   allowed: "passQueryParameters only on a tier with variants")
        }
        let variantNames = tier.variants == nil ? [] : Tier.variantParameterNames
        for (index, name) in tier.passQueryParameters.enumerated() where variantNames.contains(name) {
            report(.contradiction, "\(passPath)[\(index)]", value: .string(name),
                   problem: "\(JSONValue.quote(name)) is a variant parameter",
                   allowed: "a name other than " + variantNames.joined(separator: ", ") + " on a tier with variants")
        }
        // What an ignored entry must never match: a signed tier's signature parameters (verified before anything is
        // dropped, so ignoring one would only work because of that order), variant parameters, the version
        // parameter, passed parameters.
        var kept: [(name: String, role: String)] = []
        if tier.signedURLs != nil { kept += Self.signatureParameterNames.map { ($0, "the signature parameter") } }
        kept += variantNames.map { ($0, "the variant parameter") }
        if let version = tier.versionParameter { kept.append((version, "the versionParameter")) }
        for name in tier.passQueryParameters where !kept.contains(where: { $0.name == name }) {
            kept.append((name, "a passQueryParameters entry"))
        }
        for (index, pattern) in tier.ignoredQueryParameters.enumerated() {
            guard let hit = kept.first(where: { Tier.queryPattern(pattern, matches: $0.name[...]) }) else { continue }
            report(.contradiction, "\(ignoredPath)[\(index)]", value: .string(pattern),
                   problem: "\(JSONValue.quote(pattern)) would ignore \(hit.role) \(JSONValue.quote(hit.name))",
                   allowed: "entries that match none of " + kept.map(\.name).joined(separator: ", "))
        }
    }

    /// The query parameters of a signed URL (docs/signed-urls.md): `exp`, `sub`, `kid`, `sig`.
    static let signatureParameterNames = ["exp", "sub", "kid", "sig"]
}
