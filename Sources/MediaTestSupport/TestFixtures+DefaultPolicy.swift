extension TestFixtures {
    /// `policies/default.json`: the default tiers without variants (`public` and `avatar` on disk, shared,
    /// credentials stripped; `private` encrypted, bearer-required, partitioned per credential; `no-store`) and
    /// the routes `/catalog/`, `/avatars/`, `/receipts/` and `/one-time/` to `http://origin.test/<route>/`.
    /// Stops the test run when the file cannot be read.
    public static let defaultPolicy: String = {
        do { return try policyText("default.json") } catch { preconditionFailure("Tests/Fixtures/policies/default.json: \(error)") }
    }()

    /// ``defaultPolicy``'s tiers with `routes` (one JSON object each, e.g.
    /// `{ "name": "catalog", "mount": "/catalog/", "origin": "http://127.0.0.1:8081/catalog/", "tier": "public" }`)
    /// in place of its routes, one a line.
    public static func defaultPolicy(routes: [String]) -> String {
        let text = defaultPolicy
        guard let open = text.range(of: "\"routes\": [") else { preconditionFailure("default.json has no routes") }
        return text[..<open.upperBound] + "\n" + routes.joined(separator: ",\n") + "\n  ] }"
    }
}
