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
        /// Sets what `set` sets from what `read` makes of the value at `key` (`read` reports a value it refuses and
        /// returns `nil`); nothing when the key is absent.
        func readKey<Value>(_ key: String, _ set: (inout RouteDraft, Value) -> Void, _ read: (JSONValue, String) -> Value?) {
            if let value = keys[key], let read = read(value, at(key)) { set(&draft, read) }
        }
        readKey("tier", { $0.tier = $1 }) { string($0, at: $1, allowed: "the name of a tier defined in any policy file") }
        readKey("methods", { $0.methods = $1 }) { choice($0, at: $1, as: Route.Methods.self) }
        readKey("targetedCacheControl", { $0.targetedCacheControl = $1 }) { targetedFieldNames($0, at: $1) }
        readKey("originAuthorization", { $0.originAuthorization = $1 }) { originAuthorization($0, at: $1) }
        readKey("subjectHeader", { $0.subjectHeader = $1 }) { subjectHeader($0, at: $1) }
        readKey("cors", { $0.cors = $1 }) { cors($0, at: $1) }
        draft.isComplete = errors.count == before
        return draft
    }
}
