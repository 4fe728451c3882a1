import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// What image clients are told: never a longer lifetime than mediactl keeps, CORS fields kept,
/// canonical field names.
@Suite struct DownstreamFieldsTests {
    @Test func unversionedAvatarMaxAgeIsLoweredToTheTierCap() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("avatars/u1001.jpg")
        let fields: HTTPFields = ["Cache-Control": "public, max-age=600", "Etag": "\"a1\""]
        harness.origin.setReply(.init(status: 200, fields: fields, body: jpeg), for: "http://origin.test/avatars/u1001.jpg")
        harness.origin.setReply(.init(status: 200, fields: fields, body: jpeg), for: "http://origin.test/avatars/u1001.jpg?v=3")
        let unversioned = await harness.get("/avatars/u1001.jpg")
        #expect(unversioned.fields["Cache-Control"] == "public, max-age=300")
        #expect(unversioned.fields["ETag"] == "\"a1\"")
        #expect(unversioned.fields.fields.contains { $0.name == "ETag" })
        let versioned = await harness.get("/avatars/u1001.jpg?v=3")
        #expect(versioned.fields["Cache-Control"] == "public, max-age=600")
    }

    @Test func corsFieldsReachImageClients() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=60", "Access-Control-Allow-Origin": "*",
                                                            "Cross-Origin-Resource-Policy": "cross-origin", "Server": "origin/1"],
                                      body: jpeg), for: "http://origin.test/catalog/horse.jpg")
        let first = await harness.get("/catalog/horse.jpg")
        #expect(first.fields["Access-Control-Allow-Origin"] == "*")
        #expect(first.fields["Cross-Origin-Resource-Policy"] == "cross-origin")
        #expect(first.fields["Server"] == nil)
        let hit = await harness.get("/catalog/horse.jpg")
        #expect(hit.fields["Access-Control-Allow-Origin"] == "*")
    }

    @Test func purgeEndpointAnswers405WithAllowPost() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let answer = await harness.get("/_mediactl/purge", method: "DELETE")
        #expect(answer.status == 405)
        #expect(answer.fields["Allow"] == "POST")
    }
}
