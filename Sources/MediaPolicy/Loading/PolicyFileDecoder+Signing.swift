import MediaCore

extension PolicyFileDecoder {
    static let secretPathAllowed =
        "a file path (relative to the policy file's directory, or absolute) of 1 to 1024 characters, without NUL or control characters"
    static let originAllowedText =
        "an origin as browsers send it in Origin: http or https, a host, an optional port, no path, e.g. \"https://app.example.com\""

    /// `signedURLs` (a tier): `keys` required, `maxLifetime` 1–86,400 (default 900), `required` (default `true`).
    mutating func signedURLs(_ value: JSONValue, at path: String) -> SignedURLPolicy? {
        let before = errors.count
        guard let keys = object(value, at: path, known: PolicyFormat.signedURLKeys) else { return nil }
        var policy: SignedURLPolicy?
        if let value = keys["keys"] {
            if let file = secretPath(value, at: "\(path).keys") {
                policy = SignedURLPolicy(keys: file, keysPath: resolve(file))
            }
        } else {
            report(.missingKey, "\(path).keys", value: nil, problem: "missing required key", allowed: Self.secretPathAllowed)
        }
        if let value = keys["maxLifetime"],
           let seconds = integer(value, at: "\(path).maxLifetime", range: 1...SignedURLPolicy.maximumLifetime, unit: "seconds") {
            policy?.maxLifetime = seconds
        }
        if let value = keys["required"], let required = boolean(value, at: "\(path).required") {
            policy?.required = required
        }
        return errors.count == before ? policy : nil
    }

    /// `cors` (a tier or a route): `allowOrigins` required (1–64 distinct origins), `maxAge` 0–86,400 (default
    /// 600), `allowAuthorization` (default `false`).
    mutating func cors(_ value: JSONValue, at path: String) -> CORSPolicy? {
        let before = errors.count
        guard let keys = object(value, at: path, known: PolicyFormat.corsKeys) else { return nil }
        var policy: CORSPolicy?
        if let value = keys["allowOrigins"] {
            if let origins = allowedOrigins(value, at: "\(path).allowOrigins") { policy = CORSPolicy(allowOrigins: origins) }
        } else {
            report(.missingKey, "\(path).allowOrigins", value: nil, problem: "missing required key",
                   allowed: "a non-empty array of at most \(PolicyFormat.maximumAllowedOrigins) distinct origins, each " + Self.originAllowedText)
        }
        if let value = keys["maxAge"],
           let seconds = integer(value, at: "\(path).maxAge", range: 0...CORSPolicy.maximumMaxAge, unit: "seconds") {
            policy?.maxAge = seconds
        }
        if let value = keys["allowAuthorization"], let flag = boolean(value, at: "\(path).allowAuthorization") {
            policy?.allowAuthorization = flag
        }
        return errors.count == before ? policy : nil
    }

    /// `originAuthorization` (a route): `{"bearerFile": PATH}`.
    mutating func originAuthorization(_ value: JSONValue, at path: String) -> OriginAuthorization? {
        guard let keys = object(value, at: path, known: PolicyFormat.originAuthorizationKeys) else { return nil }
        guard let file = keys["bearerFile"] else {
            report(.missingKey, "\(path).bearerFile", value: nil, problem: "missing required key", allowed: Self.secretPathAllowed)
            return nil
        }
        guard let text = secretPath(file, at: "\(path).bearerFile") else { return nil }
        return OriginAuthorization(bearerFile: text, bearerPath: resolve(text))
    }

    /// `subjectHeader` (a route): a field name that is not one the pipeline or HTTP framing owns.
    mutating func subjectHeader(_ value: JSONValue, at path: String) -> String? {
        fieldName(value, at: path, reserved: Self.reservedFieldNames,
                  allowed: "a field name (RFC 9110 token, at most 64 characters) such as \"Mediactl-Subject\", not a field HTTP or the cache owns")
    }

    /// A field name (RFC 9110 token, at most 64 characters) that is not one of `reserved` (lower case): reported with
    /// `allowed` as `… is not a field name` or `… is a field HTTP or the cache owns` (`subjectHeader`, `tagHeader`).
    mutating func fieldName(_ value: JSONValue, at path: String, reserved: Set<String>, allowed: String) -> String? {
        guard let name = string(value, at: path, allowed: allowed) else { return nil }
        guard PolicyText.isFieldName(name) else {
            report(.invalidValue, path, value: value, problem: "\(value.rendered) is not a field name", allowed: allowed)
            return nil
        }
        guard !reserved.contains(name.lowercased()) else {
            report(.invalidValue, path, value: value, problem: "\(value.rendered) is a field HTTP or the cache owns", allowed: allowed)
            return nil
        }
        return name
    }

    /// Fields a `subjectHeader` may not name (lower case).
    static let reservedFieldNames: Set<String> = [
        "authorization", "cookie", "host", "content-length", "transfer-encoding", "connection", "te", "trailer", "upgrade",
        "keep-alive", "cache-control", "pragma", "accept", "accept-encoding", "range", "if-none-match", "if-modified-since",
        "if-match", "if-unmodified-since", "if-range", "origin", "expect", "forwarded", "x-forwarded-for",
    ]

    /// A boolean.
    mutating func boolean(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            reportType(value, at: path, allowed: "true or false")
            return nil
        }
        return flag
    }

    /// A secret file's path as written.
    private mutating func secretPath(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path, allowed: Self.secretPathAllowed) else { return nil }
        guard !text.isEmpty, text.utf8.count <= PolicyFormat.maximumTextLength,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            report(.invalidValue, path, value: value, problem: "\(value.rendered) is not a usable file path", allowed: Self.secretPathAllowed)
            return nil
        }
        return text
    }

    /// `cors.allowOrigins`.
    private mutating func allowedOrigins(_ value: JSONValue, at path: String) -> [String]? {
        let allowed = "a non-empty array of at most \(PolicyFormat.maximumAllowedOrigins) distinct origins, each " + Self.originAllowedText
        guard case .array(let elements) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard !elements.isEmpty, elements.count <= PolicyFormat.maximumAllowedOrigins else {
            report(.invalidValue, path, value: value, problem: "\(elements.count) entries", allowed: allowed)
            return nil
        }
        var origins: [String] = []
        for (index, element) in elements.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let text = string(element, at: itemPath, allowed: Self.originAllowedText) else { return nil }
            guard PolicyText.isSerializedOrigin(text) else {
                report(.invalidValue, itemPath, value: element, problem: "\(element.rendered) is not an origin", allowed: Self.originAllowedText)
                return nil
            }
            guard !origins.contains(text) else {
                report(.invalidValue, itemPath, value: element, problem: "\(element.rendered) is listed twice", allowed: allowed)
                return nil
            }
            origins.append(text)
        }
        return origins
    }

    /// `path` against the directory of this policy file (`Policies/default.json` → `Policies/<path>`); absolute as is.
    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }
}
