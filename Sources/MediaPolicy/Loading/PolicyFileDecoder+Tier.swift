import MediaCore

extension PolicyFileDecoder {
    static let nameAllowed = "1 to 64 lowercase letters, digits and '-', starting with a letter or digit"

    mutating func decodeTiers(_ value: JSONValue) {
        guard case .object(let members) = value else {
            reportType(value, at: "tiers", allowed: "an object of tier name → tier object")
            return
        }
        var seen = Set<String>()
        for member in members {
            let path = PolicyFileDecoder.join("tiers", member.key)
            guard seen.insert(member.key).inserted else {
                report(.duplicateKey, path, value: member.value, problem: "duplicate key", allowed: "each key once per object")
                continue
            }
            guard PolicyText.isName(member.key) else {
                report(.invalidValue, path, value: .string(member.key),
                       problem: "\(JSONValue.quote(member.key)) is not a valid tier name", allowed: PolicyFileDecoder.nameAllowed)
                continue
            }
            tiers.append((member.key, decodeTier(named: member.key, member.value, at: path)))
        }
    }

    /// The tier, or `nil` when any key had a problem (all of them reported).
    private mutating func decodeTier(named name: String, _ value: JSONValue, at path: String) -> Tier? {
        let before = errors.count
        guard let keys = object(value, at: path, known: PolicyFormat.tierKeys) else { return nil }
        func at(_ key: String) -> String { "\(path).\(key)" }

        var storage: StorageClass?
        if let value = keys["storage"] {
            storage = choice(value, at: at("storage"), as: StorageClass.self)
        } else {
            report(.missingKey, at("storage"), value: nil, problem: "missing required key",
                   allowed: StorageClass.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var tier = Tier(name: name, storage: storage ?? .none)
        /// Sets what `set` sets from the integer at `key`, when it is one within `range` (else reported).
        func integerKey(_ key: String, in range: ClosedRange<Int>, unit: String, _ set: (inout Tier, Int) -> Void) {
            if let value = keys[key], let number = integer(value, at: at(key), range: range, unit: unit) { set(&tier, number) }
        }
        /// Sets what `set` sets from the choice at `key`, when it is one of `type`'s (else reported).
        func choiceKey<Choice: RawRepresentable & CaseIterable>(_ key: String, as type: Choice.Type,
                                                                  _ set: (inout Tier, Choice) -> Void) where Choice.RawValue == String {
            if let value = keys[key], let chosen = choice(value, at: at(key), as: type) { set(&tier, chosen) }
        }
        /// Sets what `set` sets from the boolean at `key`, when it is one (else reported).
        func booleanKey(_ key: String, _ set: (inout Tier, Bool) -> Void) {
            if let value = keys[key], let flag = boolean(value, at: at(key)) { set(&tier, flag) }
        }

        choiceKey("cache", as: Tier.CacheRole.self) { $0.cache = $1 }
        choiceKey("credentials", as: Tier.CredentialPolicy.self) { $0.credentials = $1 }
        choiceKey("partition", as: Tier.Partition.self) { $0.partition = $1 }
        let seconds = 0...PolicyFormat.maximumSeconds
        integerKey("maxTTL", in: seconds, unit: "seconds") { $0.maxTTL = $1 }
        integerKey("unversionedMaxTTL", in: seconds, unit: "seconds") { $0.unversionedMaxTTL = $1 }
        integerKey("defaultTTL", in: 1...PolicyFormat.maximumSeconds, unit: "seconds") { $0.defaultTTL = $1 }
        booleanKey("heuristic") { $0.heuristic = $1 }
        integerKey("serveStaleOnError", in: seconds, unit: "seconds") { $0.serveStaleOnError = $1 }
        integerKey("keyLifetime", in: 1...PolicyFormat.maximumSeconds, unit: "seconds") { $0.keyLifetime = $1 }
        if let value = keys["versionParameter"] {
            tier.versionParameter = versionParameter(value, at: at("versionParameter"))
        }
        if let value = keys["ignoredQueryParameters"],
           let names = queryParameterList(value, at: at("ignoredQueryParameters"), allowsPrefix: true) {
            tier.ignoredQueryParameters = names
        }
        if let value = keys["passQueryParameters"],
           let names = queryParameterList(value, at: at("passQueryParameters"), allowsPrefix: false) {
            tier.passQueryParameters = names
        }
        if let value = keys["errorTTL"], let lifetimes = errorTTL(value, at: at("errorTTL")) {
            tier.errorTTL = lifetimes
        }
        integerKey("maxObjectBytes", in: 1...PolicyFormat.maximumMemoryBytes, unit: "bytes") { $0.maxObjectBytes = $1 }
        integerKey("maxPixels", in: 1...PolicyFormat.maximumPixels, unit: "pixels") { $0.maxPixels = $1 }
        integerKey("memoryBytes", in: 0...PolicyFormat.maximumMemoryBytes, unit: "bytes") { $0.memoryBytes = $1 }
        integerKey("diskBytes", in: 0...PolicyFormat.maximumDiskBytes, unit: "bytes") { $0.diskBytes = $1 }
        if let value = keys["originTimeout"],
           let number = positiveNumber(value, at: at("originTimeout"), upTo: PolicyFormat.maximumOriginTimeout, unit: "seconds") {
            tier.originTimeout = number
        }
        if let value = keys["contentTypes"], let types = contentTypes(value, at: at("contentTypes")) {
            tier.contentTypes = types
        }
        if let value = keys["downstreamCacheControl"] {
            tier.downstreamCacheControl = downstreamCacheControl(value, at: at("downstreamCacheControl"))
        }
        if let value = keys["variants"] {
            tier.variants = variants(value, at: at("variants"))
        }
        if let value = keys["animation"] {
            tier.animation = animation(value, at: at("animation"))
        }
        choiceKey("metadata", as: Tier.MetadataPolicy.self) { $0.metadata = $1 }
        if let value = keys["targetedCacheControl"] {
            tier.targetedCacheControl = targetedFieldNames(value, at: at("targetedCacheControl"))
        }
        choiceKey("setCookie", as: Tier.SetCookiePolicy.self) { $0.setCookie = $1 }
        if let value = keys["tagHeader"] {
            tier.tagHeader = tagHeader(value, at: at("tagHeader"))
        }
        if let value = keys["signedURLs"] {
            tier.signedURLs = signedURLs(value, at: at("signedURLs"))
        }
        if let value = keys["cors"] {
            tier.cors = cors(value, at: at("cors"))
        }
        booleanKey("forwardInterim") { $0.forwardInterim = $1 }
        if let value = keys["forwardRequestHeaders"], let names = forwardedFieldNames(value, at: at("forwardRequestHeaders")) {
            tier.forwardRequestHeaders = names
        }
        guard errors.count == before else { return nil }
        checkContradictions(tier, keys: keys, at: path)
        checkQueryParameterContradictions(tier, at: path)
        checkErrorTTLContradictions(tier, at: path)
        return errors.count == before ? tier : nil
    }

    private mutating func versionParameter(_ value: JSONValue, at path: String) -> String? {
        let allowed = "a query parameter name of 1 to 64 letters, digits, '-', '.', '_' or '~'"
        guard let text = string(value, at: path, allowed: allowed) else { return nil }
        guard PolicyText.isQueryName(text) else {
            report(.invalidValue, path, value: value, problem: "\(value.rendered) is not a valid parameter name", allowed: allowed)
            return nil
        }
        return text
    }

    private mutating func contentTypes(_ value: JSONValue, at path: String) -> [String]? {
        let listed = Tier.imageContentTypes.joined(separator: ", ")
        let allowed = "[\"*/*\"] or a non-empty array of distinct \(listed)"
        return distinctNames(
            value, at: path, names: Tier.imageContentTypes, allowed: allowed, emptyProblem: "an empty array accepts nothing",
            wildcard: "*/*")
    }

    private mutating func downstreamCacheControl(_ value: JSONValue, at path: String) -> String? {
        let allowed = "comma-separated Cache-Control directives (RFC 9111 §5.2) in visible ASCII, at most 1024 characters"
        guard let text = string(value, at: path, allowed: allowed) else { return nil }
        guard PolicyText.directiveNames(text) != nil else {
            report(.invalidValue, path, value: value, problem: "\(value.rendered) is not a valid Cache-Control value", allowed: allowed)
            return nil
        }
        return text
    }
}
