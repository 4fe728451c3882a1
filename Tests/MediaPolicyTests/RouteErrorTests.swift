import Testing
@testable import MediaPolicy

@Suite struct RouteErrorTests {
    static let mountAllowed = #"a path starting and ending with "/", without empty, "." or ".." segments or characters that need percent-encoding, not under /_mediactl/"#
    static let originAllowed = #"an absolute http or https URL whose path ends with "/", without user info, query or fragment"#

    func route(name: String = "r", mount: String = "/r/", origin: String = "http://o.example/", tier: String = "t") -> String {
        #"{ "name": "\#(name)", "mount": "\#(mount)", "origin": "\#(origin)", "tier": "\#(tier)" }"#
    }

    func mountMessages(_ mount: String) -> [String] {
        PolicyFixture.messages(PolicyFixture.routePolicy(route(mount: mount)))
    }

    func originMessages(_ origin: String) -> [String] {
        PolicyFixture.messages(PolicyFixture.routePolicy(route(origin: origin)))
    }

    @Test func mountsMustStartAndEndWithSlash() {
        let errors = PolicyFixture.errors(PolicyFixture.routePolicy(route(mount: "/r")))
        #expect(errors.map(\.description) == [
            #"Policies/test.json: routes[0].mount: "/r" does not start and end with "/"; allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(errors.first?.code == .invalidMount)
        #expect(errors.first?.keyPath == "routes[0].mount")
        #expect(mountMessages("r/") == [
            #"Policies/test.json: routes[0].mount: "r/" does not start and end with "/"; allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(mountMessages("") == [
            #"Policies/test.json: routes[0].mount: "" does not start and end with "/"; allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
    }

    @Test func malformedMounts() {
        #expect(mountMessages("/a//b/") == [
            #"Policies/test.json: routes[0].mount: "/a//b/" contains an empty, "." or ".." segment; allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(mountMessages("/a/../b/") == [
            #"Policies/test.json: routes[0].mount: "/a/../b/" contains an empty, "." or ".." segment; allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(mountMessages("/a b/") == [
            #"Policies/test.json: routes[0].mount: "/a b/" contains a character that needs percent-encoding (space, ?, #, %, non-ASCII…); allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(mountMessages("/a%2e/") == [
            #"Policies/test.json: routes[0].mount: "/a%2e/" contains a character that needs percent-encoding (space, ?, #, %, non-ASCII…); allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(mountMessages("/_mediactl/x/") == [
            #"Policies/test.json: routes[0].mount: "/_mediactl/x/" is reserved for mediactl's own endpoints; allowed: \#(RouteErrorTests.mountAllowed)"#,
        ])
        #expect(mountMessages("/") == [])
        #expect(mountMessages("/a-b/c.d_e~/") == [])
    }

    @Test func originsMustBePlainHTTPBaseURLs() {
        func message(_ origin: String, _ problem: String) -> String {
            #"Policies/test.json: routes[0].origin: "\#(origin)" \#(problem); allowed: \#(RouteErrorTests.originAllowed)"#
        }
        let errors = PolicyFixture.errors(PolicyFixture.routePolicy(route(origin: "ftp://o.example/")))
        #expect(errors.map(\.description) == [message("ftp://o.example/", "is not an http or https URL")])
        #expect(errors.first?.code == .invalidOrigin)
        #expect(originMessages("o.example/") == [message("o.example/", "is not an http or https URL")])
        #expect(originMessages("http://user:pw@o.example/") == [message("http://<redacted>@o.example/", "has user info")])
        #expect(originMessages("http://o.example/?v=1") == [message("http://o.example/?v=1", "has a query")])
        #expect(originMessages("http://o.example/#top") == [message("http://o.example/#top", "has a fragment")])
        #expect(originMessages("http:///x/") == [message("http:///x/", "has no host")])
        #expect(originMessages("http://o.example:0/") == [message("http://o.example:0/", "has an invalid port")])
        #expect(originMessages("http://o.example:65536/") == [message("http://o.example:65536/", "has an invalid port")])
        #expect(originMessages("http://o.example:/") == [message("http://o.example:/", "has an invalid port")])
        #expect(originMessages("http://o_x/") == [message("http://o_x/", "has an invalid host")])
        #expect(originMessages("http://[::1/") == [message("http://[::1/", "has an invalid host")])
        #expect(originMessages("http://o.example") == [message("http://o.example", "has a path that does not end with \"/\"")])
        #expect(originMessages("http://o.example/a") == [message("http://o.example/a", "has a path that does not end with \"/\"")])
        #expect(originMessages("http://o.example/a b/") == [
            message("http://o.example/a b/", "contains a character that needs percent-encoding (space, control, non-ASCII)"),
        ])
    }

    @Test func validOrigins() {
        #expect(originMessages("https://O.Example:8443/a/b/") == [])
        #expect(originMessages("HTTP://127.0.0.1:8081/catalog/") == [])
        #expect(originMessages("http://[::1]:8081/") == [])
        #expect(originMessages("http://[::1]/") == [])
    }

    @Test func routeNamesAndRequiredKeys() {
        #expect(PolicyFixture.messages(PolicyFixture.routePolicy(route(name: "Catalog"))) == [
            #"Policies/test.json: routes[0].name: "Catalog" is not a valid route name; allowed: 1 to 64 lowercase letters, digits and '-', starting with a letter or digit"#,
        ])
        let errors = PolicyFixture.errors(PolicyFixture.routePolicy("{}"))
        #expect(errors.map(\.description) == [
            "Policies/test.json: routes[0].mount: missing required key; allowed: \(RouteErrorTests.mountAllowed)",
            "Policies/test.json: routes[0].name: missing required key; allowed: 1 to 64 lowercase letters, digits and '-', starting with a letter or digit",
            "Policies/test.json: routes[0].origin: missing required key; allowed: \(RouteErrorTests.originAllowed)",
            "Policies/test.json: routes[0].tier: missing required key; allowed: the name of a tier defined in any policy file",
        ])
        #expect(Set(errors.map(\.code)) == [.missingKey])
        #expect(PolicyFixture.messages(PolicyFixture.routePolicy("3")) == [
            "Policies/test.json: routes[0]: 3 is an integer; allowed: an object with keys cors, methods, mount, name, origin, originAuthorization, subjectHeader, targetedCacheControl, tier",
        ])
    }

    @Test func methods() throws {
        let text = PolicyFixture.routePolicy(#"{ "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "methods": "all" }"#)
        #expect(try PolicyFixture.load(text).routes.first?.methods == .all)
        let bad = PolicyFixture.routePolicy(#"{ "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "methods": "ALL" }"#)
        #expect(PolicyFixture.messages(bad) == [
            #"Policies/test.json: routes[0].methods: "ALL" is not allowed (did you mean `all`?); allowed: read, all"#,
        ])
    }
}
