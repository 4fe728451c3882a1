import HTTPServer
import MediaCore
import Testing

@testable import MediaCTL

/// The embedded origin's per-tier answers (called directly, no socket).
@Suite struct DemoOriginTests {
    let origin: DemoOrigin

    init() throws {
        origin = try DemoOrigin(samples: DemoSamples.all())
    }

    func get(_ target: String, _ fields: HTTPFields = [], method: HTTPMethod = .get)
        -> HTTPServerResponse
    {
        origin.answer(HTTPServerRequest(method: method, target: target, headerFields: fields))
    }

    @Test func catalogIsImmutableWithAnETag() throws {
        let response = get("/catalog/coffee-237a7131.jpg")
        let file = try #require(origin.files["/catalog/coffee-237a7131.jpg"])
        #expect(response.status == 200)
        #expect(response.field("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(response.field("Content-Type") == "image/jpeg")
        #expect(response.field("ETag") == file.etag)
        #expect(file.etag == "\"237a71317caaaa45\"")
        #expect(response.body == file.bytes)
    }

    @Test func avatarsAreShortLivedAndVersionTwoIsTheNextPicture() throws {
        let current = get("/avatars/u1001.jpg")
        #expect(current.field("Cache-Control") == "max-age=60")
        #expect(current.body == origin.files["/avatars/u1001.jpg"]?.bytes)
        let next = get("/avatars/u1001.jpg?v=2")
        #expect(next.status == 200)
        #expect(next.body == origin.files["/avatars/u1001.next.jpg"]?.bytes)
        #expect(next.field("ETag") == origin.files["/avatars/u1001.next.jpg"]?.etag)
        #expect(get("/avatars/u1001.jpg?v=1").body == current.body)
        let unknown = get("/avatars/u1001.jpg?v=3")
        #expect(unknown.status == 404)
        #expect(
            String(decoding: unknown.body, as: UTF8.self)
                == "{\"code\":\"http-404\",\"detail\":\"no version 3 of /avatars/u1001.jpg\",\"status\":404,\"title\":\"Not Found\",\"type\":\"https://mediactl.dev/problems/http-404\"}"
        )
    }

    @Test func receiptsRequireADemoToken() {
        for token in ["demo-token-u1", "demo-token-u2"] {
            let response = get("/receipts/r-7731.png", [("Authorization", "Bearer " + token)])
            #expect(response.status == 200)
            #expect(response.field("Cache-Control") == "private, max-age=60")
            #expect(response.field("Content-Type") == "image/png")
        }
        for fields: HTTPFields in [[], [("Authorization", "Bearer demo-token-u3")], [("Authorization", "demo-token-u1")]] {
            let response = get("/receipts/r-7731.png", fields)
            #expect(response.status == 401)
            #expect(response.field("WWW-Authenticate") == "Bearer")
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == "{\"code\":\"http-401\",\"detail\":\"a demo bearer token is required\",\"status\":401,\"title\":\"Unauthorized\",\"type\":\"https://mediactl.dev/problems/http-401\"}"
            )
        }
    }

    @Test func oneTimeIsNoStoreAndNeverAnswered304() throws {
        let file = try #require(origin.files["/one-time/ticket-5510.jpg"])
        let response = get("/one-time/ticket-5510.jpg", [("If-None-Match", file.etag)])
        #expect(response.status == 200)
        #expect(response.field("Cache-Control") == "no-store")
        #expect(response.field("ETag") == nil)
    }

    @Test func ifNoneMatchIsAnswered304() throws {
        let file = try #require(origin.files["/catalog/horse-d29d871c.jpg"])
        let response = get("/catalog/horse-d29d871c.jpg", [("If-None-Match", "\"other\", " + file.etag)])
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.field("ETag") == file.etag)
        #expect(response.field("Content-Type") == nil)
        #expect(get("/catalog/horse-d29d871c.jpg", [("If-None-Match", "\"other\"")]).status == 200)
    }

    @Test func unknownPathsAndMethods() {
        let missing = get("/catalog/nope.jpg")
        #expect(missing.status == 404)
        #expect(
            String(decoding: missing.body, as: UTF8.self)
                == "{\"code\":\"http-404\",\"detail\":\"no sample at /catalog/nope.jpg\",\"status\":404,\"title\":\"Not Found\",\"type\":\"https://mediactl.dev/problems/http-404\"}"
        )
        let post = get("/catalog/coffee-237a7131.jpg", method: "POST")
        #expect(post.status == 405)
        #expect(post.field("Allow") == "GET, HEAD")
        #expect(origin.requestCount == 2)
    }

    @Test func helpers() {
        #expect(DemoOrigin.nextVersion(of: "/avatars/u1001.jpg") == "/avatars/u1001.next.jpg")
        #expect(DemoOrigin.nextVersion(of: "/avatars/u1001") == "/avatars/u1001.next")
        #expect(DemoOrigin.queryValue("v", in: "w=1&v=2") == "2")
        #expect(DemoOrigin.queryValue("v", in: "v") == "")
        #expect(DemoOrigin.queryValue("v", in: "vv=2") == nil)
        #expect(DemoOrigin.queryValue("v", in: nil) == nil)
        #expect(DemoOrigin.contentType("a.WEBP") == "image/webp")
        #expect(DemoOrigin.contentType("a.svg") == "application/octet-stream")
    }
}
