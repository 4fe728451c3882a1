import MediaAudit
import HTTPCaching
import MediaCore
@testable import MediaService
import MediaSigning
import Testing

/// Signed capability URLs through ``MediaService/handle(_:)`` (docs/signed-urls.md): the subject is the partition,
/// the origin gets the service token and the subject, the answer is capped at the signature's lifetime.
@Suite struct SignedURLPipelineTests {
    static let url = "http://origin.test/receipts/r.png"

    @Test func twoSubjectsGetTheirOwnPartitionsAndTheOriginLearnsOnlyTheSubject() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        let origin = world.harness.origin
        origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("MARK-A")),
                        for: Self.url)
        let alice = try world.sign("/receipts/r.png", subject: "alice")
        let bob = try world.sign("/receipts/r.png", subject: "bob")
        // A client's own subject field and credentials never reach the origin.
        let first = await world.harness.get(alice, [("Mediactl-Subject", "mallory"), ("Authorization", "Bearer stolen"),
                                                   ("Cookie", "s=1")])
        #expect(first.status == 200)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=memory")
        #expect(first.fields["Referrer-Policy"] == "no-referrer")
        #expect(first.fields["Cache-Control"] == "private, max-age=300")
        let second = await world.harness.get(bob)
        #expect(second.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=memory")
        let again = await world.harness.get(alice)
        #expect(again.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(origin.callCount(for: Self.url) == 2)
        #expect(origin.requests.map { $0.fields["Mediactl-Subject"] } == ["alice", "bob"])
        #expect(origin.requests.map { $0.fields["Authorization"] } == ["Bearer svc-token-9f2c", "Bearer svc-token-9f2c"])
        #expect(origin.requests.allSatisfy { $0.fields["Cookie"] == nil && $0.url == Self.url })
        let partitions = [first, second, again].map(\.outcome.partition)
        #expect(partitions[0] != nil && partitions[1] != nil && partitions[0] != partitions[1] && partitions[0] == partitions[2])
        // The same subject's partition, computed as `purge --subject` does.
        #expect(partitions[0] == world.harness.service.keys.partition(forSubject: "alice"))
    }

    @Test func theAnswerNeverOutlivesTheSignature() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        world.harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=600"], body: PipelineSupport.markedPNG("M")),
                                      for: Self.url)
        let target = try world.sign("/receipts/r.png", subject: "alice", for: 120)
        #expect(await world.harness.get(target).fields["Cache-Control"] == "private, max-age=120")
        world.harness.clock.advance(100)
        let hit = await world.harness.get(target)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=500")
        #expect(hit.fields["Cache-Control"] == "private, max-age=20")
        world.harness.clock.advance(20)
        let expired = await world.harness.get(target)
        #expect(expired.status == 403)
        #expect(PipelineSupport.problemCode(expired) == "signature-expired")
        #expect(expired.fields["Referrer-Policy"] == "no-referrer")
    }

    @Test func aDownstreamValueWithoutMaxAgeGetsOneAndNoStoreStays() async throws {
        for (downstream, expected) in [("private", "private, max-age=300"), ("private, no-store", "private, no-store")] {
            let world = try SignedURLWorld(downstream: downstream)
            world.harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("M")),
                                          for: Self.url)
            #expect(await world.harness.get(try world.sign("/receipts/r.png", subject: "a")).fields["Cache-Control"] == expected)
            await world.close()
        }
    }

    @Test func refusalsComeBeforeTheOriginAndTheStores() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        let target = try world.sign("/receipts/r.png", query: "w=144", subject: "alice")
        let cases: [(String, HTTPStatus, String)] = [
            ("/receipts/r.png", 401, "signature-required"),
            (target.replacingOccurrences(of: "w=144", with: "w=288"), 403, "signature-invalid"),
            (target.replacingOccurrences(of: "kid=k1", with: "kid=k9"), 403, "unknown-key-id"),
            (target + "&sig=x", 403, "signature-malformed"),
            (target.replacingOccurrences(of: "/receipts/", with: "/%72eceipts/"), 403, "signature-malformed"),
            (target.replacingOccurrences(of: "/receipts/r.png", with: "/receipts/a/../r.png"), 403, "signature-malformed"),
            (target.replacingOccurrences(of: "/receipts/", with: "/catalog/"), 403, "signature-invalid"),
        ]
        for (request, status, code) in cases {
            let answer = await world.harness.get(request)
            #expect(answer.status == status, "\(request)")
            #expect(PipelineSupport.problemCode(answer) == code, "\(request)")
        }
        let required = await world.harness.get("/receipts/r.png")
        #expect(required.fields["WWW-Authenticate"] == "Mediactl-Signed-URL realm=\"signed\"")
        #expect(world.harness.origin.totalCallCount == 0)
        #expect(try world.harness.auditRecords().filter { $0.entry.event != .start } .isEmpty)
    }

    @Test func aTierThatAlsoTakesBearersKeepsTheTwoKindsOfPartitionApart() async throws {
        let world = try SignedURLWorld(required: false)
        defer { Task { await world.close() } }
        let origin = world.harness.origin
        origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("SVC")),
                        for: Self.url, authorization: .value("Bearer svc-token-9f2c"))
        origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("USER")),
                        for: Self.url, authorization: .value("Bearer alice"))
        // A bearer token equal to a subject never opens that subject's partition.
        let bearer = await world.harness.get("/receipts/r.png", [("Authorization", "Bearer alice"), ("Mediactl-Subject", "alice")])
        #expect(bearer.body == PipelineSupport.markedPNG("USER"))
        #expect(bearer.fields["Referrer-Policy"] == nil)
        let signed = await world.harness.get(try world.sign("/receipts/r.png", subject: "alice"))
        #expect(signed.body == PipelineSupport.markedPNG("SVC"))
        #expect(bearer.outcome.partition != signed.outcome.partition)
        #expect(origin.requests.map { $0.fields["Mediactl-Subject"] } == [nil, "alice"])
        #expect(await world.harness.get("/receipts/r.png").status == 401)
    }

    @Test func purgeBySubjectRemovesOneSubjectOnly() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        world.harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("M")),
                                      for: Self.url)
        let alice = try world.sign("/receipts/r.png", subject: "alice")
        let bob = try world.sign("/receipts/r.png", subject: "bob")
        _ = await world.harness.get(alice)
        _ = await world.harness.get(bob)
        #expect(try world.harness.service.purge(.subject("alice")) == 1)
        #expect(await world.harness.get(bob).fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(await world.harness.get(alice).fields["Cache-Status"]?.hasPrefix("mediactl; fwd=uri-miss") == true)
        let purges = try world.harness.auditRecords().filter { $0.entry.event == .purge }
        #expect(purges.map(\.entry.reason?.rawValue) == ["purge-subject", "purge-subject"])
        #expect(throws: ServiceError(.invalidSubject, "the subject is not 1 to 128 of A-Z a-z 0-9 . _ -")) {
            try world.harness.service.purge(.subject("a b"))
        }
    }

    @Test func aPurgeBySubjectGivesAReceiptWithoutTheSubject() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        world.harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("M")),
                                      for: Self.url)
        _ = await world.harness.get(try world.sign("/receipts/r.png", subject: "alice-7"))
        let (count, text) = try world.harness.service.purgeWithReceipt(.subject("alice-7"))
        #expect(count == 1)
        let signer = try #require(try AuditSigningKeyFile.existing(stateDirectory: world.harness.stateDirectory))
        let receipt = try ErasureReceipt.open(text, verifier: NoteVerifier(signer))
        #expect(receipt.reason == "purge-subject")
        #expect(receipt.removed.map(\.objects) == [1])
        let summary = try #require(try world.harness.auditRecords().last { $0.entry.event == .purge })
        #expect(receipt.partition == summary.entry.partition?.hex)
        #expect(!text.contains("alice-7"))
        #expect(!text.contains("r.png"))
    }
}
