import Testing
@testable import MediaPolicy

@Suite struct OriginOverrideTests {
    func loadDefault() throws -> PolicySet {
        try PolicyLoader().load(directory: PolicyFixture.repositoryRoot + "/Policies")
    }

    @Test func replacesOneRoutesOrigin() throws {
        let policy = try loadDefault().overridingOrigin("https://cdn.example:8443/c/", forRoute: "catalog")
        #expect(policy.route(named: "catalog")?.origin == "https://cdn.example:8443/c/")
        #expect(policy.route(named: "avatars")?.origin == "http://127.0.0.1:8081/avatars/")
    }

    @Test func unknownRoute() throws {
        let policy = try loadDefault()
        #expect(throws: PolicyError(
            .unknownRoute, file: "--origin", keyPath: "catalg", value: #""http://o.example/""#,
            problem: "unknown route (did you mean `catalog`?)", allowed: "avatars, catalog, large, one-time, receipts, uploads")) {
            try policy.overridingOrigin("http://o.example/", forRoute: "catalg")
        }
        let error = PolicyError(
            .unknownRoute, file: "--origin", keyPath: "catalg", value: nil,
            problem: "unknown route (did you mean `catalog`?)", allowed: "avatars, catalog, large, one-time, receipts, uploads")
        #expect(error.description == "--origin: catalg: unknown route (did you mean `catalog`?); allowed: avatars, catalog, large, one-time, receipts, uploads")
    }

    @Test func invalidOrigin() throws {
        let policy = try loadDefault()
        do {
            _ = try policy.overridingOrigin("http://o.example/?x", forRoute: "catalog")
            Issue.record("accepted an origin with a query")
        } catch {
            #expect(error.code == .invalidOrigin)
            #expect(error.description == #"--origin: catalog: "http://o.example/?x" has a query; allowed: an absolute http or https URL whose path ends with "/", without user info, query or fragment"#)
        }
    }
}

@Suite struct OriginSecretsTests {
    @Test func aPasswordInAnOriginIsNeverEchoed() {
        let policy = #"{ "tiers": { "t": { "storage": "disk" } }, "routes": [ { "name": "r", "mount": "/r/", "origin": "ftp://user:s3cret@files.example/r/", "tier": "t" } ] }"#
        let errors = PolicyFixture.errors(policy)
        #expect(errors.map(\.code) == [.invalidOrigin])
        #expect(errors.allSatisfy { !$0.description.contains("s3cret") && !$0.description.contains("user:") })
        #expect(errors.first?.value == "\"ftp://<redacted>@files.example/r/\"")
    }
}
