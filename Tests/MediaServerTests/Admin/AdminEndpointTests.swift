import MediaTestSupport
import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaStorage
import Testing

@testable import MediaServer

@Suite struct AdminEndpointTests {
    static let token = String(repeating: "ab", count: 32)

    func post(
        _ endpoint: AdminEndpoint, _ body: String, authorization: String? = "Bearer \(token)",
        method: String = "POST", target: String = "/_mediactl/purge"
    ) -> ServiceResponse {
        var fields = HTTPFields()
        if let authorization { fields.append("Authorization", authorization) }
        return endpoint.respond(method: HTTPMethod(method), target: target, fields: fields, body: Array(body.utf8))
    }

    func detail(_ response: ServiceResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    func problem(_ status: Int, _ code: String, _ detail: String) -> String {
        String(decoding: ProblemDetails(status: HTTPStatus(code: status), code: code, detail: detail).json, as: UTF8.self)
    }

    @Test func aReceiptIsAskedOnlyWithACredentialOrSubject() async throws {
        let harness = try await Self.populated()
        defer { Task { await harness.close() } }
        let endpoint = AdminEndpoint(service: harness.service, adminToken: Self.token)
        let detail = "receipt is allowed only with credential or subject, as true"
        for body in [#"{"route":"catalog","receipt":true}"#, #"{"credential":"tok-U1","receipt":false}"#, #"{"all":true,"receipt":true}"#] {
            let refused = post(endpoint, body)
            #expect(refused.status == 400)
            #expect(self.detail(refused) == problem(400, "invalid-purge-request", detail))
        }
        let answered = post(endpoint, #"{"credential":"tok-U1","receipt":true}"#)
        #expect(answered.status == 200)
        let text = self.detail(answered)
        #expect(text.hasPrefix(#"{"purged":1,"receipt":{"receipt":{"checkpoint":"#))
        #expect(!text.contains("tok-U1"))
    }

    @Test func purgesByRouteCredentialAndAll() async throws {
        let harness = try await Self.populated()
        defer { Task { await harness.close() } }
        let endpoint = AdminEndpoint(service: harness.service, adminToken: Self.token)
        let route = post(endpoint, #"{"route":"catalog"}"#)
        #expect(route.status == 200)
        #expect(detail(route) == #"{"purged":1}"#)
        #expect(route.fields["Content-Type"] == "application/json")
        #expect(route.fields["Cache-Control"] == "no-store")
        #expect(try Self.objects(harness, in: .disk).isEmpty)
        #expect(try Self.objects(harness, in: .sealed).count == 1)
        let other = post(endpoint, #"{"credential":"tok-U2"}"#)
        #expect(detail(other) == #"{"purged":0}"#)
        let credential = post(endpoint, #"{"credential":"tok-U1"}"#)
        #expect(detail(credential) == #"{"purged":1}"#)
        #expect(try Self.objects(harness, in: .sealed).isEmpty)
        let all = post(endpoint, #"{"all":true}"#)
        #expect(detail(all) == #"{"purged":0}"#)
        let purges = try harness.auditRecords().filter { $0.event == .purge }
        #expect(purges.count == 6)  // two per-key records and four summaries
        let text = try String(contentsOfFile: harness.stateDirectory + "/audit/audit.jsonl", encoding: .utf8)
        #expect(!text.contains("tok-U1"))
    }

    @Test func refusals() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let endpoint = AdminEndpoint(
            service: harness.service, adminToken: Self.token,
            configuration: .init(maximumBodyBytes: 64))
        let shape =
            "the body must be a JSON object with exactly one of route (string), credential (string), subject (string), url (string), tag (string; with soft: true to mark stale) or all (true)"
        let unauthorized = "/_mediactl/purge requires the admin token of serve.json as a bearer token"
        let cases: [(ServiceResponse, Int, String, String)] = [
            (post(endpoint, "{}", target: "/_mediactl/other?x=1"), 404, "no-route", "no endpoint at /_mediactl/other"),
            (
                post(endpoint, #"{"all":true}"#, method: "GET"), 405, "method-not-allowed",
                "/_mediactl/purge answers POST only"
            ),
            (post(endpoint, #"{"all":true}"#, authorization: nil), 401, "admin-token-required", unauthorized),
            (
                post(endpoint, #"{"all":true}"#, authorization: "Bearer wrong"), 401, "admin-token-required",
                unauthorized
            ),
            (
                post(endpoint, #"{"all":true}"#, authorization: "Basic \(Self.token)"), 401, "admin-token-required",
                unauthorized
            ),
            (
                post(endpoint, String(repeating: " ", count: 65)), 413, "body-too-large",
                "the body has 65 bytes; at most 64"
            ),
            (post(endpoint, "not json"), 400, "invalid-purge-request", shape),
            (post(endpoint, "[]"), 400, "invalid-purge-request", shape),
            (post(endpoint, #"{"all":false}"#), 400, "invalid-purge-request", shape),
            (post(endpoint, #"{"route":""}"#), 400, "invalid-purge-request", shape),
            (post(endpoint, #"{"route":"catalog","all":true}"#), 400, "invalid-purge-request", shape),
            (post(endpoint, #"{"everything":true}"#), 400, "invalid-purge-request", shape),
            // A repeated key is refused, not read as its first or last value.
            (post(endpoint, #"{"route":"catalog","route":"receipts"}"#), 400, "invalid-purge-request", shape),
            (post(endpoint, #"{"tag":"a","tag":"b"}"#), 400, "invalid-purge-request", shape),
            (post(endpoint, #"{"all":1}"#), 400, "invalid-purge-request", shape),
            (
                post(endpoint, #"{"credential":"has space"}"#), 400, "invalid-credential",
                "the credential is not a bearer token (RFC 6750 b64token)"
            ),
            (
                post(endpoint, #"{"route":"nope"}"#), 404, "unknown-route",
                "no route named nope; routes: catalog, avatars, receipts, one-time"
            ),
        ]
        for (response, status, code, message) in cases {
            #expect(response.status == status, "\(code)")
            #expect(detail(response) == problem(status, code, message))
            #expect(response.fields["Content-Type"] == "application/problem+json")
        }
        #expect(cases[1].0.fields["Allow"] == "POST")
        #expect(cases[2].0.fields["WWW-Authenticate"] == "Bearer realm=\"mediactl-admin\"")
        #expect(try harness.auditRecords().filter { $0.event == .purge }.isEmpty)
    }

    @Test func handlesOnlyItsPath() {
        #expect(AdminEndpoint.handles(target: "/_mediactl/purge"))
        #expect(AdminEndpoint.handles(target: "/_mediactl/purge?dry=1"))
        #expect(!AdminEndpoint.handles(target: "/_mediactl/purge/x"))
        #expect(!AdminEndpoint.handles(target: "/_mediactl/health"))
    }

    /// The pipeline harness with one public catalog image (disk) and one private receipt of `Bearer tok-U1`
    /// (sealed) stored.
    static func populated() async throws -> PipelineHarness {
        let harness = try PipelineHarness()
        harness.origin.setReply(
            .init(status: 200, fields: ["Cache-Control": "public, max-age=31536000"],
                  body: try TestFixtures.bytes("catalog/horse-d29d871c.jpg")),
            for: "http://origin.test/catalog/horse-d29d871c.jpg")
        harness.origin.setReply(
            .init(status: 200, fields: ["Cache-Control": "private, max-age=60"],
                  body: try TestFixtures.bytes("receipts/r-7732.jpg")),
            for: "http://origin.test/receipts/r-7732.jpg", authorization: .value("Bearer tok-U1"))
        let catalog = await harness.get("/catalog/horse-d29d871c.jpg")
        let receipt = await harness.get("/receipts/r-7732.jpg", [("Authorization", "Bearer tok-U1")])
        #expect(catalog.outcome.storage == .stored(.disk))
        #expect(receipt.outcome.storage == .stored(.encryptedDisk))
        harness.service.flushWrites()
        return harness
    }

    /// The state directory's stored objects in `folder` (`disk`, `sealed`), as `mediactl audit` scans them.
    static func objects(_ harness: PipelineHarness, in folder: InventoryItem.Folder) throws -> [InventoryItem] {
        let integrityKey = try IntegrityKeyFile.existing(stateDirectory: harness.stateDirectory)
        return try StateInventory.scan(stateDirectory: harness.stateDirectory, integrityKey: integrityKey).objects
            .filter { $0.folder == folder }
    }
}
