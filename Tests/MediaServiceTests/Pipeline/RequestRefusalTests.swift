import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// Requests refused before any lookup, through ``MediaService/handle(_:)``: exact status, problem
/// `code` and `detail`, and a valid RFC 9457 body. The origin is never contacted.
@Suite struct RequestRefusalTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var method = "GET"
        var target: String
        var fields: [String: String] = [:]
        var body: [UInt8] = []
        var status: Int
        var code: String
        var detail: String
        var testDescription: String { "\(method) \(target.prefix(40)) → \(code)" }
    }

    static let longTarget = "/catalog/" + String(repeating: "a", count: 2040)

    static let cases: [Case] = [
        Case(target: "/catalog/../receipts/r.png", status: 400, code: "dot-segment", detail: "'..' segment at index 1"),
        Case(target: "/catalog/%2e%2e/receipts/r.png", status: 400, code: "dot-segment", detail: "'..' segment at index 1"),
        Case(target: "/catalog/a%2Fb.jpg", status: 400, code: "encoded-slash", detail: "encoded slash in the path at byte 10"),
        Case(target: "/catalog/a%5Cb.jpg", status: 400, code: "backslash", detail: "encoded backslash in the path at byte 10"),
        Case(target: "/catalog/a\\b.jpg", status: 400, code: "backslash", detail: "backslash in the path at byte 10"),
        Case(target: "/catalog/a%00.jpg", status: 400, code: "nul-byte", detail: "encoded NUL in the path at byte 10"),
        Case(target: "/catalog/a%01.jpg", status: 400, code: "control-character",
             detail: "encoded control character 0x01 in the path at byte 10"),
        Case(target: "/catalog/a\u{7}.jpg", status: 400, code: "control-character",
             detail: "control character 0x07 in the path at byte 10"),
        Case(target: longTarget, status: 414, code: "path-too-long", detail: "the path has 2049 bytes, over the limit of 2048"),
        Case(target: "/catalog//x.jpg", status: 400, code: "empty-segment", detail: "empty path segment at index 1"),
        Case(target: "/catalog/x.jpg?" + String(repeating: "q", count: 2049), status: 414, code: "query-too-long",
             detail: "the query has 2049 bytes, over the limit of 2048"),
        Case(target: "/catalog/a%zz.jpg", status: 400, code: "bad-percent-encoding", detail: "'%' without two hex digits in the path at byte 10"),
        Case(target: "/catalog/a%C3%28.jpg", status: 400, code: "invalid-utf8", detail: "a decoded path segment is not UTF-8"),
        Case(target: "/catalog/a b.jpg", status: 400, code: "invalid-character",
             detail: "byte 0x20 must be percent-encoded in the path at byte 10"),
        Case(target: "/catalog/x.jpg?a=%00", status: 400, code: "nul-byte", detail: "encoded NUL in the query at byte 17"),
        Case(target: "catalog/x.jpg", status: 400, code: "not-origin-form", detail: "the request target does not start with /"),
        Case(target: "", status: 400, code: "empty-target", detail: "the request target is empty"),
        Case(target: "ftp://evil.example/catalog/x.jpg", status: 400, code: "absolute-form",
             detail: "only http and https absolute-form targets are accepted"),
        Case(target: "/nowhere/x.jpg", status: 404, code: "no-route", detail: "no route is mounted at /nowhere/x.jpg"),
        Case(target: "/_mediactl/nothing", status: 404, code: "no-route", detail: "no endpoint at /_mediactl/nothing"),
        Case(method: "POST", target: "/catalog/x.jpg", status: 405, code: "method-not-allowed",
             detail: "route catalog answers GET and HEAD only"),
        Case(method: "DELETE", target: "/_mediactl/health", status: 405, code: "method-not-allowed",
             detail: "/_mediactl/health answers GET and HEAD only"),
        Case(target: "/catalog/x.jpg", body: Array("payload".utf8), status: 400, code: "body-not-allowed",
             detail: "a GET request carries no body"),
        Case(target: "/catalog/x.jpg", fields: ["Content-Length": "7"], status: 400, code: "body-not-allowed",
             detail: "a GET request carries no body"),
        Case(target: "/catalog/x.jpg", fields: ["Transfer-Encoding": "chunked"], status: 400,
             code: "body-not-allowed", detail: "a GET request carries no body"),
        Case(target: "/receipts/r.png", status: 401, code: "credentials-required", detail: "tier private requires a bearer token"),
        Case(target: "/receipts/r.png", fields: ["Authorization": "Basic dTpw"], status: 401, code: "invalid-token",
             detail: "the Authorization scheme is not Bearer"),
        Case(target: "/receipts/r.png", fields: ["Authorization": "Bearer "], status: 401, code: "invalid-token",
             detail: "Bearer without a token"),
        Case(target: "/receipts/r.png", fields: ["Authorization": "Bearer a b"], status: 401, code: "invalid-token",
             detail: "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)"),
        Case(target: "/receipts/r.png", fields: ["Authorization": ""], status: 401, code: "invalid-token",
             detail: "the Authorization field is empty"),
    ]

    @Test(arguments: cases)
    func refusedWithAnExactProblem(_ refusal: Case) async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let response = await harness.send(ServiceRequest(
            method: HTTPMethod(refusal.method), target: refusal.target, fields: HTTPFields(refusal.fields.map { ($0.key, $0.value) }),
            body: refusal.body))
        #expect(response.status == refusal.status)
        #expect(response.fields["Content-Type"] == "application/problem+json")
        #expect(response.fields["Cache-Control"] == "no-store")
        #expect(response.fields["X-Content-Type-Options"] == "nosniff")
        #expect(response.fields["Content-Length"] == String(response.body.count))
        let members = try #require(PipelineSupport.problemMembers(response))
        #expect(Set(members.keys) == ["type", "title", "status", "detail", "code"])
        #expect(members["code"] as? String == refusal.code)
        #expect(members["detail"] as? String == refusal.detail)
        #expect(members["status"] as? Int == refusal.status)
        #expect(members["type"] as? String == "https://mediactl.dev/problems/" + refusal.code)
        #expect(response.outcome.reason == refusal.code)
        #expect(harness.origin.totalCallCount == 0)
        #expect(PipelineSupport.events(try harness.auditRecords()) == [])
    }

    @Test func problemTitlesFollowTheStatus() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let titles = [
            (await harness.get("/catalog/../x"), "Bad Request"), (await harness.get("/receipts/x.png"), "Unauthorized"),
            (await harness.get("/nowhere/x"), "Not Found"), (await harness.get("/catalog/x", method: "PUT"), "Method Not Allowed"),
            (await harness.get(Self.longTarget), "URI Too Long"),
        ]
        for (response, title) in titles {
            #expect(PipelineSupport.problemMembers(response)?["title"] as? String == title)
        }
    }

    @Test func methodNotAllowedNamesTheAllowedMethods() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            let response = await harness.get("/catalog/x.jpg", method: HTTPMethod(method))
            #expect(response.status == 405)
            #expect(response.fields["Allow"] == "GET, HEAD")
        }
    }

    @Test func missingAndMalformedBearerAnswerWWWAuthenticate() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let missing = await harness.get("/receipts/r.png")
        #expect(missing.fields["WWW-Authenticate"] == "Bearer")
        let malformed = await harness.get("/receipts/r.png", [("Authorization", "Bearer a b")])
        #expect(malformed.fields["WWW-Authenticate"] == "Bearer error=\"invalid_token\"")
        let twice = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1"), ("Authorization", "Bearer t2")])
        #expect(twice.status == 401)
        #expect(PipelineSupport.problemMembers(twice)?["detail"] as? String == "2 Authorization field lines")
        // The detail never echoes the credential.
        for response in [malformed, twice] {
            #expect(!response.text.contains("t1"))
            #expect(!response.text.contains("a b"))
        }
        #expect(harness.origin.totalCallCount == 0)
    }

    @Test(arguments: [("Authorization", "Bearer t1"), ("Cookie", "sid=1"), ("authorization", "")])
    func refuseTierAnswers400ToAnyCredential(name: String, value: String) async throws {
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(
            of: "\"avatar\":  { \"storage\": \"disk\", \"cache\": \"shared\", \"credentials\": \"strip\"",
            with: "\"avatar\":  { \"storage\": \"disk\", \"cache\": \"shared\", \"credentials\": \"refuse\"")
        let harness = try PipelineHarness(policyJSON: policy)
        defer { Task { await harness.close() } }
        #expect(harness.service.policies.tiers["avatar"]?.credentials == .refuse)
        let response = await harness.get("/avatars/u.jpg", [(name, value)])
        #expect(response.status == 400)
        #expect(PipelineSupport.problemCode(response) == "credentials-refused")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String == "tier avatar refuses credentials")
        #expect(harness.origin.totalCallCount == 0)
        let anonymous = await harness.get("/avatars/u.jpg")
        #expect(anonymous.status == 404)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func headRefusalsCarryTheProblemLengthButNoBody() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(body: try Fixtures.bytes("hostile/script.svg")), for: "http://origin.test/catalog/s.jpg")
        for target in ["/receipts/x.png", "/catalog/s.jpg", "/catalog/../x"] {
            let get = await harness.get(target)
            let head = await harness.get(target, method: "HEAD")
            #expect(head.status == get.status)
            #expect(head.body.isEmpty)
            #expect(head.fields["Content-Length"] == String(get.body.count))
            #expect(head.fields["Content-Type"] == "application/problem+json")
        }
        let headWithBody = await harness.get("/catalog/x.jpg", [("Transfer-Encoding", "chunked")], method: "HEAD")
        #expect(headWithBody.status == 400)
        #expect(headWithBody.outcome.reason == "body-not-allowed")
        #expect(headWithBody.body.isEmpty)
        let fast = harness.service.handleIfCached(ServiceRequest(method: "HEAD", target: "/receipts/x.png"))
        #expect(fast?.status == 401)
        #expect(fast?.body.isEmpty == true)
    }
}
