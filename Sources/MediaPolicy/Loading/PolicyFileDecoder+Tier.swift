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
        let allowed = "an object with keys " + PolicyFormat.tierKeys.joined(separator: ", ")
        guard let keys = object(value, at: path, known: PolicyFormat.tierKeys, allowed: allowed) else { return nil }
        func at(_ key: String) -> String { "\(path).\(key)" }

        var storage: StorageClass?
        if let value = keys["storage"] {
            storage = choice(value, at: at("storage"), as: StorageClass.self)
        } else {
            report(.missingKey, at("storage"), value: nil, problem: "missing required key",
                   allowed: StorageClass.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var tier = Tier(name: name, storage: storage ?? .none)
        if let value = keys["cache"], let cache = choice(value, at: at("cache"), as: Tier.CacheRole.self) {
            tier.cache = cache
        }
        if let value = keys["credentials"], let credentials = choice(value, at: at("credentials"), as: Tier.CredentialPolicy.self) {
            tier.credentials = credentials
        }
        if let value = keys["partition"], let partition = choice(value, at: at("partition"), as: Tier.Partition.self) {
            tier.partition = partition
        }
        let seconds = 0...PolicyFormat.maximumSeconds
        if let value = keys["maxTTL"], let number = integer(value, at: at("maxTTL"), range: seconds, unit: "seconds") {
            tier.maxTTL = number
        }
        if let value = keys["unversionedMaxTTL"],
           let number = integer(value, at: at("unversionedMaxTTL"), range: seconds, unit: "seconds") {
            tier.unversionedMaxTTL = number
        }
        if let value = keys["defaultTTL"],
           let number = integer(value, at: at("defaultTTL"), range: 1...PolicyFormat.maximumSeconds, unit: "seconds") {
            tier.defaultTTL = number
        }
        if let value = keys["heuristic"], let flag = boolean(value, at: at("heuristic")) {
            tier.heuristic = flag
        }
        if let value = keys["serveStaleOnError"],
           let number = integer(value, at: at("serveStaleOnError"), range: seconds, unit: "seconds") {
            tier.serveStaleOnError = number
        }
        if let value = keys["keyLifetime"],
           let number = integer(value, at: at("keyLifetime"), range: 1...PolicyFormat.maximumSeconds, unit: "seconds") {
            tier.keyLifetime = number
        }
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
        if let value = keys["maxObjectBytes"],
           let number = integer(value, at: at("maxObjectBytes"), range: 1...PolicyFormat.maximumMemoryBytes, unit: "bytes") {
            tier.maxObjectBytes = number
        }
        if let value = keys["maxPixels"],
           let number = integer(value, at: at("maxPixels"), range: 1...PolicyFormat.maximumPixels, unit: "pixels") {
            tier.maxPixels = number
        }
        if let value = keys["memoryBytes"],
           let number = integer(value, at: at("memoryBytes"), range: 0...PolicyFormat.maximumMemoryBytes, unit: "bytes") {
            tier.memoryBytes = number
        }
        if let value = keys["diskBytes"],
           let number = integer(value, at: at("diskBytes"), range: 0...PolicyFormat.maximumDiskBytes, unit: "bytes") {
            tier.diskBytes = number
        }
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
        if let value = keys["metadata"], let metadata = choice(value, at: at("metadata"), as: Tier.MetadataPolicy.self) {
            tier.metadata = metadata
        }
        if let value = keys["targetedCacheControl"] {
            tier.targetedCacheControl = targetedFieldNames(value, at: at("targetedCacheControl"))
        }
        if let value = keys["setCookie"], let policy = choice(value, at: at("setCookie"), as: Tier.SetCookiePolicy.self) {
            tier.setCookie = policy
        }
        if let value = keys["tagHeader"] {
            tier.tagHeader = tagHeader(value, at: at("tagHeader"))
        }
        if let value = keys["signedURLs"] {
            tier.signedURLs = signedURLs(value, at: at("signedURLs"))
        }
        if let value = keys["cors"] {
            tier.cors = cors(value, at: at("cors"))
        }
        if let value = keys["forwardInterim"], let flag = boolean(value, at: at("forwardInterim")) {
            tier.forwardInterim = flag
        }
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
