import MediaCore

extension PolicySet {
    /// A copy whose route `name` fetches from `origin` instead (`mediactl serve --origin ROUTE=URL`).
    ///
    /// The origin is validated like the `origin` key of a policy file. Errors name the file
    /// `--origin` and the route as key path, e.g.
    /// `--origin: catalog: "ftp://x/" is not an http or https URL; allowed: an absolute http or https URL …`.
    /// - Throws: ``PolicyError`` with ``PolicyError/Code/unknownRoute`` (no route `name`; the closest
    ///   name is suggested) or ``PolicyError/Code/invalidOrigin``.
    public func overridingOrigin(_ origin: String, forRoute name: String) throws(PolicyError) -> PolicySet {
        guard let index = routes.firstIndex(where: { $0.name == name }) else {
            let names = routes.map(\.name).sorted()
            throw PolicyError(
                .unknownRoute, file: "--origin", keyPath: name, value: JSONValue.quote(origin),
                problem: "unknown route\(KeySuggestion.hint(for: name, in: names))", allowed: names.joined(separator: ", "))
        }
        if let problem = PolicyText.originProblem(origin) {
            throw PolicyError(
                .invalidOrigin, file: "--origin", keyPath: name, value: JSONValue.quote(origin),
                problem: "\(JSONValue.quote(origin)) \(problem)", allowed: PolicyFileDecoder.originAllowed)
        }
        var copy = self
        copy.routes[index].origin = origin
        return copy
    }
}
