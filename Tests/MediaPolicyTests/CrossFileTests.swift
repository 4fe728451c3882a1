import Testing
@testable import MediaPolicy

@Suite struct CrossFileTests {
    static let tiers = #"{ "tiers": { "public": { "storage": "disk" }, "private": { "storage": "memory", "cache": "private", "partition": "credential", "credentials": "bearer-required" } } }"#

    func routes(_ routes: String...) -> String { #"{ "routes": [ \#(routes.joined(separator: ", ")) ] }"# }

    func route(_ name: String, _ mount: String, _ tier: String = "public") -> String {
        #"{ "name": "\#(name)", "mount": "\#(mount)", "origin": "http://o.example/", "tier": "\#(tier)" }"#
    }

    @Test func tiersAndRoutesMergeAcrossFiles() throws {
        let sources = [
            PolicyLoader.Source(name: "Policies/10-tiers.json", text: CrossFileTests.tiers),
            PolicyLoader.Source(name: "Policies/20-routes.json", text: routes(route("a", "/a/"), route("b", "/b/", "private"))),
            PolicyLoader.Source(name: "Policies/30-more.json", text: routes(route("c", "/c/"))),
        ]
        let policy = try PolicyLoader().load(sources: sources)
        #expect(policy.files == ["Policies/10-tiers.json", "Policies/20-routes.json", "Policies/30-more.json"])
        #expect(policy.tiers.keys.sorted() == ["private", "public"])
        #expect(policy.routes.map(\.name) == ["a", "b", "c"])
        #expect(policy.routes.map(\.file) == ["Policies/20-routes.json", "Policies/20-routes.json", "Policies/30-more.json"])
    }

    @Test func unknownTierSuggestsAndListsTheDefinedOnes() {
        let errors = PolicyFixture.errors(#"{ "tiers": { "public": { "storage": "disk" }, "private": { "storage": "memory", "cache": "private", "partition": "credential", "credentials": "forward" } }, "routes": [ \#(route("r", "/r/", "privat")) ] }"#)
        #expect(errors.map(\.description) == [
            #"Policies/test.json: routes[0].tier: "privat" is not a defined tier (did you mean `private`?); allowed: private, public"#,
        ])
        #expect(errors.first?.code == .unknownTier)
        #expect(PolicyFixture.messages(routes(route("r", "/r/", "gold"))) == [
            #"Policies/test.json: routes[0].tier: "gold" is not a defined tier; allowed: a tier defined in any policy file (none is)"#,
        ])
    }

    @Test func aTierWithErrorsStillCountsAsDefined() {
        let text = #"{ "tiers": { "t": { "storage": "disc" } }, "routes": [ \#(PolicyFixture.route) ] }"#
        #expect(PolicyFixture.messages(text) == [
            #"Policies/test.json: tiers.t.storage: "disc" is not allowed (did you mean `disk`?); allowed: disk, encrypted-disk, memory, none"#,
        ])
    }

    @Test func duplicateRouteNamesAcrossFiles() {
        let messages = PolicyFixture.messages([
            ("Policies/a.json", CrossFileTests.tiers),
            ("Policies/b.json", routes(route("catalog", "/catalog/"))),
            ("Policies/c.json", routes(route("other", "/other/"), route("catalog", "/images/"))),
        ])
        #expect(messages == [
            #"Policies/c.json: routes[1].name: "catalog" is already the name of Policies/b.json routes[0]; allowed: a route name used once across all policy files"#,
        ])
    }

    @Test func overlappingMountsAcrossFilesBothWays() {
        let allowed = "a mount that is not a prefix of, and does not start with, another route's mount"
        let messages = PolicyFixture.messages([
            ("Policies/a.json", CrossFileTests.tiers),
            ("Policies/b.json", routes(route("catalog", "/catalog/"), route("all", "/"))),
            ("Policies/c.json", routes(route("big", "/catalog/big/"), route("same", "/catalog/"))),
        ])
        #expect(messages == [
            #"Policies/b.json: routes[1].mount: "/" overlaps "/catalog/" of route "catalog" (Policies/b.json routes[0]); allowed: \#(allowed)"#,
            #"Policies/c.json: routes[0].mount: "/catalog/big/" overlaps "/catalog/" of route "catalog" (Policies/b.json routes[0]); allowed: \#(allowed)"#,
            #"Policies/c.json: routes[1].mount: "/catalog/" overlaps "/catalog/" of route "catalog" (Policies/b.json routes[0]); allowed: \#(allowed)"#,
        ])
    }

    @Test func overlappingMountCode() {
        let errors = PolicyFixture.errors(PolicyFixture.routePolicy(
            #"{ "name": "a", "mount": "/a/", "origin": "http://o.example/", "tier": "t" }"#,
            #"{ "name": "b", "mount": "/a/b/", "origin": "http://o.example/", "tier": "t" }"#))
        #expect(errors.map(\.code) == [.overlappingMount])
        #expect(errors.first?.keyPath == "routes[1].mount")
        #expect(errors.first?.value == #""/a/b/""#)
        #expect(errors.first?.file == "Policies/test.json")
    }

    @Test func aTierDefinedInTwoFiles() {
        let errors = PolicyFixture.messages([
            ("Policies/a.json", CrossFileTests.tiers),
            ("Policies/b.json", #"{ "tiers": { "public": { "storage": "memory" } }, "routes": [ \#(route("r", "/r/")) ] }"#),
        ])
        #expect(errors == [
            #"Policies/b.json: tiers.public: tier "public" is already defined in Policies/a.json; allowed: each tier defined in one file"#,
        ])
    }

    @Test func noRoutesAnywhere() {
        let errors = PolicyFixture.errors(CrossFileTests.tiers)
        #expect(errors.map(\.description) == [
            "Policies: routes: no policy file defines a route; allowed: at least one route in any policy file",
        ])
        #expect(errors.first?.code == .noRoutes)
    }

    @Test func noSources() {
        #expect(throws: PolicyErrorList([PolicyError(
            .noPolicyFiles, file: "Policies", keyPath: "", value: nil, problem: "no policy files (*.json)",
            allowed: "one or more *.json files")])) {
            try PolicyLoader().load(sources: [])
        }
    }

    @Test func errorsOfEveryFileAreCollected() {
        let messages = PolicyFixture.messages([
            ("Policies/a.json", #"{ "tiers": { "t": { "storage": "disk", "maxTTTL": 1 } } }"#),
            ("Policies/b.json", "{ "),
            ("Policies/c.json", routes(route("r", "r/", "t"), route("s", "/s/", "u"))),
        ])
        #expect(messages == [
            "Policies/a.json: tiers.t.maxTTTL: unknown key (did you mean `maxTTL`?); allowed: \(UnknownKeyTests.tierKeys)",
            "Policies/b.json: invalid JSON at line 1, column 3: unexpected end of file, expected a member name in double quotes; allowed: JSON (RFC 8259) without comments or trailing commas",
            #"Policies/c.json: routes[0].mount: "r/" does not start and end with "/"; allowed: \#(RouteErrorTests.mountAllowed)"#,
            #"Policies/c.json: routes[1].tier: "u" is not a defined tier (did you mean `t`?); allowed: t"#,
        ])
    }

    @Test func errorListDescriptionIsOneLinePerError() {
        let list = PolicyErrorList([
            PolicyError(.noRoutes, file: "P", keyPath: "routes", value: nil, problem: "x", allowed: "y"),
            PolicyError(.unreadable, file: "P/a.json", keyPath: "", value: nil, problem: "z", allowed: "w"),
        ])
        #expect(list.description == "P: routes: x; allowed: y\nP/a.json: z; allowed: w")
    }
}
