import MediaPolicy
import MediaService
import Testing

@Suite struct RouterTests {
    static let routes = [
        Route(name: "catalog", mount: "/catalog/", origin: "http://127.0.0.1:8081/catalog/", tier: "public"),
        Route(name: "catalog-large", mount: "/catalog/large/", origin: "http://127.0.0.1:8082/big/", tier: "public"),
        Route(name: "receipts", mount: "/receipts/", origin: "https://files.example/r/", tier: "private"),
    ]

    private func routeError(_ routes: [Route]) -> RoutingError? {
        do {
            _ = try Router(routes: routes)
            return nil
        } catch {
            return error
        }
    }

    @Test func longestMountWins() throws {
        let router = try Router(routes: Self.routes)
        let small = try router.resolve("/catalog/a.jpg")
        #expect(small.route.name == "catalog")
        #expect(small.upstreamURL == "http://127.0.0.1:8081/catalog/a.jpg")
        let large = try router.resolve("/catalog/large/x/y.jpg?v=2")
        #expect(large.route.name == "catalog-large")
        #expect(large.remainder == ["x", "y.jpg"])
        #expect(large.query == "v=2")
        #expect(large.upstreamURL == "http://127.0.0.1:8082/big/x/y.jpg?v=2")
    }

    @Test func remainderIsReEncoded() throws {
        let match = try Router(routes: Self.routes).resolve("/receipts/r%20%3F1.png?sig=a%2Fb")
        #expect(match.remainder == ["r ?1.png"])
        #expect(match.upstreamURL == "https://files.example/r/r%20%3F1.png?sig=a%2Fb")
    }

    @Test func mountAloneAndDecodedMount() throws {
        let router = try Router(routes: Self.routes)
        #expect(try router.resolve("/catalog/").upstreamURL == "http://127.0.0.1:8081/catalog/")
        #expect(try router.resolve("/cat%61log/a.jpg").route.name == "catalog")
    }

    @Test func clientsNeverChooseTheHost() throws {
        let router = try Router(routes: Self.routes)
        #expect(try router.resolve("/catalog/@evil.example/a.jpg").upstreamURL == "http://127.0.0.1:8081/catalog/@evil.example/a.jpg")
        #expect(try router.resolve("/catalog/http:/a").upstreamURL == "http://127.0.0.1:8081/catalog/http:/a")
        #expect(throws: RoutingError(.emptySegment, "empty path segment at index 1")) {
            try router.resolve("/catalog//evil.example/a.jpg")
        }
    }

    @Test func noRoute() throws {
        let router = try Router(routes: Self.routes)
        for raw in ["/catalog", "/catalogue/a.jpg", "/", "/other/a.jpg"] {
            let path = raw
            #expect(throws: RoutingError(.noRoute, "no route is mounted at \(path)")) { try router.resolve(raw) }
        }
        #expect(RoutingError(.noRoute, "").httpStatus == 404)
    }

    @Test func noRouteContextDropsTheQuery() throws {
        #expect(throws: RoutingError(.noRoute, "no route is mounted at /x/a%20b")) {
            try Router(routes: Self.routes).resolve("/x/a%20b?token=secret")
        }
    }

    @Test func traversalIsRefusedBeforeMatching() throws {
        #expect(throws: RoutingError(.dotSegment, "'..' segment at index 1")) {
            try Router(routes: Self.routes).resolve("/catalog/../receipts/r.png")
        }
    }

    @Test func rootMountCatchesEverythingElse() throws {
        let router = try Router(routes: Self.routes + [Route(name: "all", mount: "/", origin: "http://o.example/", tier: "public")])
        #expect(try router.resolve("/x/y").upstreamURL == "http://o.example/x/y")
        #expect(try router.resolve("/catalog/a").route.name == "catalog")
    }

    @Test func invalidRouteTables() {
        let base = "http://o.example/"
        #expect(routeError([Route(name: "a", mount: "/a", origin: base, tier: "public")])
            == RoutingError(.invalidRoute, "route 'a': mount '/a' must start and end with /"))
        #expect(routeError([Route(name: "a", mount: "/../", origin: base, tier: "public")])
            == RoutingError(.invalidRoute, "route 'a': mount '/../' is not a clean path (dot-segment)"))
        #expect(routeError([Route(name: "a", mount: "/a/", origin: "ftp://o.example/", tier: "public")])
            == RoutingError(.invalidRoute, "route 'a': origin 'ftp://o.example/' must start with http:// or https://"))
        #expect(routeError([Route(name: "a", mount: "/a/", origin: "http://o.example", tier: "public")])
            == RoutingError(.invalidRoute, "route 'a': origin 'http://o.example' needs a host, a path ending with / and no query, userinfo or fragment"))
        #expect(routeError([Route(name: "a", mount: "/a/", origin: "http://u@o.example/", tier: "public")])
            == RoutingError(.invalidRoute, "route 'a': origin 'http://u@o.example/' needs a host, a path ending with / and no query, userinfo or fragment"))
        #expect(routeError([Route(name: "a", mount: "/a/", origin: base, tier: "public"),
                            Route(name: "a", mount: "/b/", origin: base, tier: "public")])
            == RoutingError(.invalidRoute, "route name 'a' is used twice"))
        #expect(routeError([Route(name: "a", mount: "/a/", origin: base, tier: "public"),
                            Route(name: "b", mount: "/%61/", origin: base, tier: "public")])
            == RoutingError(.invalidRoute, "mount '/%61/' is used twice"))
        #expect(RoutingError(.invalidRoute, "").httpStatus == 500)
    }
}
