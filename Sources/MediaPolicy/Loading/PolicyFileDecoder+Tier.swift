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
        /// Sets what `set` sets from what `read` makes of the value at `key` (`read` reports a value it refuses and
        /// returns `nil`); nothing when the key is absent.
        func readKey<Value>(_ key: String, _ set: (inout Tier, Value) -> Void, _ read: (JSONValue, String) -> Value?) {
            if let value = keys[key], let read = read(value, at(key)) { set(&tier, read) }
        }
        /// Sets what `set` sets from the integer at `key`, when it is one within `range` (else reported).
        func integerKey(_ key: String, in range: ClosedRange<Int>, unit: String, _ set: (inout Tier, Int) -> Void) {
            readKey(key, set) { integer($0, at: $1, range: range, unit: unit) }
        }
        /// Sets what `set` sets from the choice at `key`, when it is one of `type`'s (else reported).
        func choiceKey<Choice: RawRepresentable & CaseIterable>(_ key: String, as type: Choice.Type,
                                                                  _ set: (inout Tier, Choice) -> Void) where Choice.RawValue == String {
            readKey(key, set) { choice($0, at: $1, as: type) }
        }
        /// Sets what `set` sets from the boolean at `key`, when it is one (else reported).
        func booleanKey(_ key: String, _ set: (inout Tier, Bool) -> Void) {
            readKey(key, set) { boolean($0, at: $1) }
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
        readKey("versionParameter", { $0.versionParameter = $1 }) { versionParameter($0, at: $1) }
        readKey("ignoredQueryParameters", { $0.ignoredQueryParameters = $1 }) {
            queryParameterList($0, at: $1, allowsPrefix: true)
        }
        readKey("passQueryParameters", { $0.passQueryParameters = $1 }) { queryParameterList($0, at: $1, allowsPrefix: false) }
        readKey("errorTTL", { $0.errorTTL = $1 }) { errorTTL($0, at: $1) }
        integerKey("maxObjectBytes", in: 1...PolicyFormat.maximumMemoryBytes, unit: "bytes") { $0.maxObjectBytes = $1 }
        integerKey("maxPixels", in: 1...PolicyFormat.maximumPixels, unit: "pixels") { $0.maxPixels = $1 }
        integerKey("memoryBytes", in: 0...PolicyFormat.maximumMemoryBytes, unit: "bytes") { $0.memoryBytes = $1 }
        integerKey("diskBytes", in: 0...PolicyFormat.maximumDiskBytes, unit: "bytes") { $0.diskBytes = $1 }
        readKey("originTimeout", { $0.originTimeout = $1 }) {
            positiveNumber($0, at: $1, upTo: PolicyFormat.maximumOriginTimeout, unit: "seconds")
        }
        readKey("contentTypes", { $0.contentTypes = $1 }) { contentTypes($0, at: $1) }
        readKey("downstreamCacheControl", { $0.downstreamCacheControl = $1 }) { downstreamCacheControl($0, at: $1) }
        readKey("variants", { $0.variants = $1 }) { variants($0, at: $1) }
        readKey("animation", { $0.animation = $1 }) { animation($0, at: $1) }
        choiceKey("metadata", as: Tier.MetadataPolicy.self) { $0.metadata = $1 }
        readKey("targetedCacheControl", { $0.targetedCacheControl = $1 }) { targetedFieldNames($0, at: $1) }
        choiceKey("setCookie", as: Tier.SetCookiePolicy.self) { $0.setCookie = $1 }
        readKey("tagHeader", { $0.tagHeader = $1 }) { tagHeader($0, at: $1) }
        readKey("signedURLs", { $0.signedURLs = $1 }) { signedURLs($0, at: $1) }
        readKey("cors", { $0.cors = $1 }) { cors($0, at: $1) }
        booleanKey("forwardInterim") { $0.forwardInterim = $1 }
        readKey("forwardRequestHeaders", { $0.forwardRequestHeaders = $1 }) { forwardedFieldNames($0, at: $1) }
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
