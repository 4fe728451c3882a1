import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct InvalidationTests {
    let target = "https://img.example/a/b/photo.jpg"

    @Test func unsafeSuccessInvalidatesTarget() {
        #expect(Invalidation.invalidatedURIs(method: "POST", status: 200, target: target, responseFields: [:]) == [target])
        #expect(Invalidation.invalidatedURIs(method: "DELETE", status: 204, target: target, responseFields: [:]) == [target])
        #expect(Invalidation.invalidatedURIs(method: "PUT", status: 303, target: target, responseFields: [:]) == [target])
    }

    @Test func safeMethodsAndErrorsInvalidateNothing() {
        for method in ["GET", "HEAD", "OPTIONS", "TRACE"] {
            #expect(Invalidation.invalidatedURIs(method: HTTPMethod(method), status: 200, target: target, responseFields: [:]) == [])
        }
        for status: HTTPStatus in [100, 199, 400, 404, 500, 503] {
            #expect(Invalidation.invalidatedURIs(method: "POST", status: status, target: target, responseFields: [:]) == [], "\(status)")
        }
    }

    @Test func sameOriginLocationAndContentLocation() {
        let uris = Invalidation.invalidatedURIs(method: "POST", status: 201, target: target,
                                                responseFields: HTTPFields([("Location", "../c/new.jpg"),
                                                                            ("Content-Location", "https://IMG.example:443/x?y=1")]))
        #expect(uris == [target, "https://img.example/a/c/new.jpg", "https://IMG.example:443/x?y=1"])
    }

    @Test func absolutePathAndQueryOnlyReferences() {
        #expect(Invalidation.invalidatedURIs(method: "PATCH", status: 200, target: target, responseFields: ["Location": "/root.jpg"])
            == [target, "https://img.example/root.jpg"])
        #expect(Invalidation.invalidatedURIs(method: "PATCH", status: 200, target: target, responseFields: ["Content-Location": "?v=2"])
            == [target, "https://img.example/a/b/photo.jpg?v=2"])
        #expect(Invalidation.invalidatedURIs(method: "PATCH", status: 200, target: target, responseFields: ["Location": "//img.example/n"])
            == [target, "https://img.example/n"])
    }

    @Test func otherOriginsAreNeverInvalidated() {
        for location in ["https://evil.example/a/b/photo.jpg", "http://img.example/a/b/photo.jpg", "https://img.example:8443/x",
                         "//evil.example/x"] {
            #expect(Invalidation.invalidatedURIs(method: "POST", status: 200, target: target, responseFields: ["Location": location])
                == [target], "\(location)")
        }
    }

    @Test func relativeTargetInvalidatesNothing() {
        #expect(Invalidation.invalidatedURIs(method: "POST", status: 200, target: "/a/b", responseFields: [:]) == [])
    }

    @Test func uriResolution() throws {
        let base = try #require(URIReference(absolute: "http://a/b/c/d;p?q"))
        // RFC 3986 §5.4.1 examples.
        let examples: [(String, String)] = [("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
                                            ("/g", "http://a/g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
                                            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"),
                                            ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
                                            ("../..", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g")]
        for (reference, expected) in examples {
            #expect(base.resolve(reference)?.description == expected, "\(reference)")
        }
    }

    @Test func originComparison() throws {
        #expect(try #require(URIReference(absolute: "HTTP://User@Example.COM/x")).origin == "http://example.com:80")
        #expect(try #require(URIReference(absolute: "https://[::1]:8443/")).origin == "https://[::1]:8443")
        #expect(URIReference(absolute: "mailto:x@y") == nil)
        #expect(URIReference(absolute: "/relative") == nil)
    }
}
