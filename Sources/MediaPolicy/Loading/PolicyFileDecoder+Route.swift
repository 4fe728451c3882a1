import MediaCore

extension PolicyFileDecoder {
    static let mountAllowed =
        "a path starting and ending with \"/\", without empty, \".\" or \"..\" segments or characters that need percent-encoding, not under /_mediactl/"
    static let originAllowed =
        "an absolute http or https URL whose path ends with \"/\", without user info, query or fragment"

    mutating func decodeRoutes(_ value: JSONValue) {
        guard case .array(let elements) = value else {
            reportType(value, at: "routes", allowed: "an array of route objects")
            return
        }
        for (index, element) in elements.enumerated() {
            routes.append(decodeRoute(element, index: index))
        }
    }

    private mutating func decodeRoute(_ value: JSONValue, index: Int) -> RouteDraft {
        let path = "routes[\(index)]"
        let before = errors.count
        var draft = RouteDraft(index: index, isComplete: false)
        guard let keys = object(value, at: path, known: PolicyFormat.routeKeys) else { return draft }
        func at(_ key: String) -> String { "\(path).\(key)" }
        let required: [String: String] = [
            "name": PolicyFileDecoder.nameAllowed, "mount": PolicyFileDecoder.mountAllowed,
            "origin": PolicyFileDecoder.originAllowed, "tier": "the name of a tier defined in any policy file",
        ]
        for key in PolicyFormat.requiredRouteKeys where keys[key] == nil {
            report(.missingKey, at(key), value: nil, problem: "missing required key", allowed: required[key] ?? "")
        }
        if let value = keys["name"], let name = string(value, at: at("name"), allowed: PolicyFileDecoder.nameAllowed) {
            if PolicyText.isName(name) {
                draft.name = name
            } else {
                report(.invalidValue, at("name"), value: value, problem: "\(value.rendered) is not a valid route name",
                       allowed: PolicyFileDecoder.nameAllowed)
            }
        }
        if let value = keys["mount"], let mount = string(value, at: at("mount"), allowed: PolicyFileDecoder.mountAllowed) {
            if let problem = PolicyText.mountProblem(mount) {
                report(.invalidMount, at("mount"), value: value, problem: "\(value.rendered) \(problem)",
                       allowed: PolicyFileDecoder.mountAllowed)
            } else {
                draft.mount = mount
            }
        }
        if let value = keys["origin"], let origin = string(value, at: at("origin"), allowed: PolicyFileDecoder.originAllowed) {
            if let problem = PolicyText.originProblem(origin) {
                // Never echo a password written into an origin URL (`scheme://user:secret@host`).
                let shown = JSONValue.string(PolicyText.redactingUserinfo(origin))
                report(.invalidOrigin, at("origin"), value: shown, problem: "\(shown.rendered) \(problem)",
                       allowed: PolicyFileDecoder.originAllowed)
            } else {
                draft.origin = origin
            }
        }
        if let value = keys["tier"] {
            draft.tier = string(value, at: at("tier"), allowed: "the name of a tier defined in any policy file")
        }
        if let value = keys["methods"], let methods = choice(value, at: at("methods"), as: Route.Methods.self) {
            draft.methods = methods
        }
        if let value = keys["targetedCacheControl"] {
            draft.targetedCacheControl = targetedFieldNames(value, at: at("targetedCacheControl"))
        }
        if let value = keys["originAuthorization"] {
            draft.originAuthorization = originAuthorization(value, at: at("originAuthorization"))
        }
        if let value = keys["subjectHeader"] {
            draft.subjectHeader = subjectHeader(value, at: at("subjectHeader"))
        }
        if let value = keys["cors"] {
            draft.cors = cors(value, at: at("cors"))
        }
        draft.isComplete = errors.count == before
        return draft
    }
}
