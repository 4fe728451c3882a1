import HTTPCaching
import MediaCore
@testable import MediaService
import MediaStorage
import MediaTestSupport
import Testing

/// CASES.md "Isolation between users", C01–C06, through ``MediaService/handle(_:)``.
/// U1 = `Bearer t1`, U2 = `Bearer t2`, ANON = no credentials; bodies carry `MARK-…` markers.
@Suite struct PartitionIsolationTests {
    static let u1 = ("Authorization", "Bearer t1")
    static let u2 = ("Authorization", "Bearer t2")

    // MARK: C01 Authorization on a shared tier

    @Test func c01DefaultPublicTierStripsAuthorizationSoOnlyTheAnonymousAnswerIsStored() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/catalog/item.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-ANON")),
                                for: url, authorization: .none)
        let u1 = await harness.get("/catalog/item.png", [Self.u1])
        #expect(u1.status == 200)
        #expect(u1.body == PipelineSupport.markedPNG("MARK-ANON"))
        #expect(u1.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        let anonymous = await harness.get("/catalog/item.png")
        let u2 = await harness.get("/catalog/item.png", [Self.u2])
        for response in [anonymous, u2] {
            #expect(response.status == 200)
            #expect(response.fields["Cache-Status"] == "mediactl; hit; ttl=60")
            #expect(!response.text.contains("MARK-U1"))
        }
        #expect(harness.origin.callCount(for: url) == 1)
        #expect(harness.origin.requests.map { $0.fields["Authorization"] } == [nil])
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage"])
    }

    @Test func c01ForwardedCredentialOnASharedRoleTierIsNeverStored() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/fwd/item.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(status: 403, fields: ["Cache-Control": "max-age=60"]),
                                for: url, authorization: .value("Bearer t2"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-ANON")),
                                for: url, authorization: .none)
        let u1 = await harness.get("/fwd/item.png", [Self.u1])
        #expect(u1.status == 200)
        #expect(u1.text.contains("MARK-U1"))
        #expect(u1.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=authorization-in-shared-cache")
        #expect(u1.outcome.storage == .notStored)
        #expect(u1.outcome.reason == "authorization-in-shared-cache")
        let anonymous = await harness.get("/fwd/item.png")
        #expect(anonymous.status == 200)
        #expect(anonymous.text.contains("MARK-ANON"))
        #expect(!anonymous.text.contains("MARK-U1"))
        let u2 = await harness.get("/fwd/item.png", [Self.u2])
        #expect(u2.status == 403)
        #expect(PipelineSupport.problemCode(u2) == "origin-status-403")
        #expect(!u2.text.contains("MARK-U1"))
        let again = await harness.get("/fwd/item.png", [Self.u1])
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=authorization-in-shared-cache")
        #expect(harness.origin.callCount(for: url) == 4)
        #expect(harness.origin.requests.map { $0.fields["Authorization"] } == ["Bearer t1", nil, "Bearer t2", "Bearer t1"])
        #expect(PipelineSupport.events(try harness.auditRecords()) == [
            "skip:authorization-in-shared-cache", "skip:no-partition", "skip:status-not-storable",
            "skip:authorization-in-shared-cache",
        ])
    }

    @Test func c01PublicAnswerToACredentialIsStoredOnlyInThatCredentialsPartition() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/fwd/item.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "public, max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "public, max-age=60"], body: PipelineSupport.markedPNG("MARK-U2")),
                                for: url, authorization: .value("Bearer t2"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "public, max-age=60"], body: PipelineSupport.markedPNG("MARK-ANON")),
                                for: url, authorization: .none)
        let u1 = await harness.get("/fwd/item.png", [Self.u1])
        #expect(u1.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=memory")
        let u2 = await harness.get("/fwd/item.png", [Self.u2])
        #expect(u2.text.contains("MARK-U2"))
        #expect(u2.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=memory")
        let anonymous = await harness.get("/fwd/item.png")
        #expect(anonymous.text.contains("MARK-ANON"))
        let u1Again = await harness.get("/fwd/item.png", [Self.u1])
        #expect(u1Again.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(u1Again.text.contains("MARK-U1"))
        #expect(harness.origin.callCount(for: url) == 3)
        #expect(PipelineSupport.events(try harness.auditRecords()) == [
            "store:tier-storage", "store:tier-storage", "skip:no-partition",
        ])
    }

    // MARK: C02 Vary: Authorization

    @Test(arguments: ["/mem/", "/receipts/"])
    func c02VaryAuthorizationMissesForAnotherUserAndNeverKeepsTheRawToken(mount: String) async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test" + mount + "doc.png"
        let tokens = ["tok-C02-first-9f8e7d", "tok-C02-second-6c5b4a"]
        for (index, token) in tokens.enumerated() {
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300", "Vary": "Authorization"],
                                          body: PipelineSupport.markedPNG("MARK-U\(index + 1)")),
                                    for: url, authorization: .value("Bearer " + token))
        }
        let first = await harness.get(mount + "doc.png", [("Authorization", "Bearer " + tokens[0])])
        #expect(first.text.contains("MARK-U1"))
        let second = await harness.get(mount + "doc.png", [("Authorization", "Bearer " + tokens[1])])
        #expect(second.status == 200)
        #expect(second.text.contains("MARK-U2"))
        #expect(second.fields["Cache-Status"]?.hasPrefix("mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored") == true)
        for (index, token) in tokens.enumerated() {
            let again = await harness.get(mount + "doc.png", [("Authorization", "Bearer " + token)])
            #expect(again.fields["Cache-Status"] == "mediactl; hit; ttl=300")
            #expect(again.text.contains("MARK-U\(index + 1)"))
        }
        #expect(harness.origin.callCount(for: url) == 2)
        // No store key, stored head, file or audit line holds a raw token.
        let runtime = try #require(harness.service.runtimes[mount == "/mem/" ? "private-mem" : "private"])
        var metadata = runtime.memory.inventory() + (runtime.hot?.inventory() ?? [])
        // File stores' indexes keep no head: read each entry (head included) from its file.
        for store in [runtime.sealed as (any MediaStoring)?, runtime.disk].compactMap({ $0 }) {
            metadata += store.inventory().compactMap { store.entry(for: $0.key)?.metadata }
        }
        #expect(metadata.count == (mount == "/mem/" ? 2 : 4))
        for item in metadata {
            let head = String(decoding: item.head, as: UTF8.self)
            for token in tokens {
                #expect(!item.key.contains(token))
                #expect(!head.contains(token))
            }
            #expect(head.contains("\"authorization\""))
        }
        for file in harness.filesUnderState() {
            for token in tokens {
                #expect(!String(decoding: file.bytes, as: UTF8.self).contains(token), "token in \(file.path)")
            }
        }
    }

    /// Cookies never reach the origin (header hygiene), so an answer that varies on `Cookie` can
    /// only be the cookie-less one: all clients share it, and no cookie value is kept anywhere.
    @Test func c02VaryCookieOnASharedTierSharesTheCookielessAnswer() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/catalog/c.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300", "Vary": "Cookie"],
                                      body: PipelineSupport.markedPNG("MARK-ANON")), for: url)
        let first = await harness.get("/catalog/c.png", [("Cookie", "sid=C02-first-cookie")])
        let second = await harness.get("/catalog/c.png", [("Cookie", "sid=C02-second-cookie")])
        #expect(first.body == PipelineSupport.markedPNG("MARK-ANON"))
        #expect(second.fields["Cache-Status"] == "mediactl; hit; ttl=300")
        #expect(harness.origin.callCount(for: url) == 1)
        #expect(harness.origin.requests.allSatisfy { !$0.fields.contains("Cookie") })
        for file in harness.filesUnderState() {
            #expect(!String(decoding: file.bytes, as: UTF8.self).contains("C02-"), "cookie in \(file.path)")
        }
    }

    // MARK: C03 Coalescing across credentials

    @Test func c03ConcurrentCallersOfDifferentCredentialsEachReachTheOrigin() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/pfwd/doc.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1"),
                                      delay: .milliseconds(500)), for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(status: 403, body: Array("MARK-U2 denied".utf8), delay: .milliseconds(500)),
                                for: url, authorization: .value("Bearer t2"))
        harness.origin.setReply(.init(status: 401, body: Array("MARK-ANON login".utf8), delay: .milliseconds(500)),
                                for: url, authorization: .none)
        let callers: [[(String, String)]] = [[Self.u1], [Self.u2], []]
        let responses = await PipelineSupport.concurrently(3) { index in
            await harness.get("/pfwd/doc.png", callers[index])
        }
        #expect(harness.origin.callCount(for: url) == 3)
        #expect(responses.map(\.status) == [200, 403, 401])
        #expect(responses[0].body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(responses[0].fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=memory")
        #expect(PipelineSupport.problemCode(responses[1]) == "origin-status-403")
        #expect(PipelineSupport.problemCode(responses[2]) == "origin-status-401")
        #expect(responses[2].fields["WWW-Authenticate"] == "Bearer")
        for response in responses[1...] { #expect(!response.text.contains("MARK-U1")) }
    }

    @Test func c03BearerTierAnswersTheAnonymousCallerItselfAndFetchesPerCredential() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/receipts/doc.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1"),
                                      delay: .milliseconds(500)), for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(status: 403, body: Array("MARK-U2 denied".utf8), delay: .milliseconds(500)),
                                for: url, authorization: .value("Bearer t2"))
        let callers: [[(String, String)]] = [[Self.u1], [Self.u2], []]
        let responses = await PipelineSupport.concurrently(3) { index in
            await harness.get("/receipts/doc.png", callers[index])
        }
        #expect(responses.map(\.status) == [200, 403, 401])
        #expect(responses[0].body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(PipelineSupport.problemCode(responses[2]) == "credentials-required")
        #expect(harness.origin.callCount(for: url) == 2)
    }

    @Test func c03PrivateAnswerOfALeaderIsNotHandedToAnonymousWaiters() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/pfwd/doc.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("MARK-ANON"),
                                      delay: .milliseconds(300)), for: url)
        let responses = await PipelineSupport.concurrently(2) { _ in await harness.get("/pfwd/doc.png") }
        #expect(responses.map(\.status) == [200, 200])
        #expect(responses.map(\.outcome.storage) == [.notStored, .notStored])
        #expect(responses.map(\.outcome.reason) == ["no-partition", "no-partition"])
        #expect(harness.origin.callCount(for: url) == 2)
    }

    // MARK: C04 Error answers cached for everyone

    @Test func c04ForbiddenWithMaxAgeForOneTokenIsNeverServedToAnother() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/receipts/doc.png"
        harness.origin.setReply(.init(status: 403, fields: ["Cache-Control": "max-age=30"], body: Array("denied".utf8)),
                                for: url, authorization: .value("Bearer bad-token"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: url, authorization: .value("Bearer t1"))
        let u2 = await harness.get("/receipts/doc.png", [("Authorization", "Bearer bad-token")])
        #expect(u2.status == 403)
        #expect(PipelineSupport.problemCode(u2) == "origin-status-403")
        #expect(PipelineSupport.problemMembers(u2)?["detail"] as? String == "the origin answered 403")
        harness.clock.advance(5)
        let u1 = await harness.get("/receipts/doc.png", [Self.u1])
        #expect(u1.status == 200)
        #expect(u1.body == PipelineSupport.markedPNG("MARK-U1"))
        let u2Again = await harness.get("/receipts/doc.png", [("Authorization", "Bearer bad-token")])
        #expect(u2Again.status == 403)
        #expect(harness.origin.callCount(for: url) == 3)
        #expect(PipelineSupport.events(try harness.auditRecords()) == [
            "skip:status-not-storable", "store:tier-storage", "skip:status-not-storable",
        ])
    }

    @Test func c04ForbiddenWithMaxAgeOnASharedTierIsNotStored() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/catalog/doc.png"
        harness.origin.setReply(.init(status: 403, fields: ["Cache-Control": "public, max-age=30"]), for: url)
        let first = await harness.get("/catalog/doc.png", [Self.u2])
        let second = await harness.get("/catalog/doc.png", [Self.u1])
        #expect([first.status, second.status] == [403, 403])
        #expect(harness.origin.callCount(for: url) == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:status-not-storable", "skip:status-not-storable"])
    }

    // MARK: C05 private without a principal

    @Test func c05PrivateResponseOnASharedTierIsNotStored() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/catalog/p.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=300"], body: PipelineSupport.markedPNG("MARK-ANON")),
                                for: url)
        let first = await harness.get("/catalog/p.png")
        #expect(first.status == 200)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=private-in-shared-cache")
        #expect(first.outcome.storage == .notStored)
        // The tier's "public, max-age=31536000, immutable" would let downstream shared caches keep it.
        #expect(first.fields["Cache-Control"] == "private, max-age=300")
        let second = await harness.get("/catalog/p.png")
        #expect(second.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=private-in-shared-cache")
        #expect(harness.origin.callCount(for: url) == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:private-in-shared-cache", "skip:private-in-shared-cache"])
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/") }.isEmpty)
    }

    @Test func c05EmptyCredentialNeverFormsAPartition() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/pfwd/p.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=300"], body: PipelineSupport.markedPNG("MARK-ANON")),
                                for: url)
        let empty = await harness.get("/pfwd/p.png", [("Authorization", "")])
        #expect(empty.status == 200)
        #expect(empty.outcome.storage == .notStored)
        #expect(empty.outcome.reason == "no-partition")
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["skip:no-partition"])
        #expect(records.last?.entry.partition == nil)
    }

    // MARK: C06 Client-supplied forwarding headers and redirects

    @Test func c06ClientForwardingHeadersAndCookiesNeverReachTheOrigin() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let url = "http://origin.test/catalog/horse.jpg"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: url)
        let first = await harness.get("/catalog/horse.jpg", [
            ("X-Forwarded-Host", "evil.example"), ("Forwarded", "host=evil.example"), ("X-Forwarded-For", "203.0.113.9"),
            ("X-Forwarded-Proto", "http"), ("Cookie", "sid=C06-cookie-value"), ("Accept", "image/*"),
        ])
        #expect(first.status == 200)
        #expect(first.body == jpeg)
        let sent = try #require(harness.origin.requests.first)
        #expect(sent.url == url)
        for name: HTTPFieldName in ["X-Forwarded-Host", "Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "Cookie", "Authorization"] {
            #expect(!sent.fields.contains(name), "\(name) reached the origin")
        }
        #expect(!sent.fields.description.contains("evil.example"))
        #expect(!sent.fields.description.contains("C06-cookie-value"))
        let second = await harness.get("/catalog/horse.jpg")
        #expect(second.body == jpeg)
        #expect(second.fields["Cache-Status"] == "mediactl; hit; ttl=600")
    }

    @Test func c06RedirectIsNeitherFollowedNorStored() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/catalog/moved.jpg"
        harness.origin.setReply(.init(status: 302, fields: ["Location": "http://evil.example/x.jpg",
                                                            "Cache-Control": "max-age=600"]), for: url)
        for _ in 0..<2 {
            let response = await harness.get("/catalog/moved.jpg")
            #expect(response.status == 502)
            #expect(response.fields["Content-Type"] == "application/problem+json")
            #expect(PipelineSupport.problemCode(response) == "redirect-refused")
            #expect(PipelineSupport.problemMembers(response)?["detail"] as? String == "the origin answered 302; redirects are never followed")
            #expect(response.fields["Location"] == nil)
        }
        #expect(harness.origin.callCount(for: url) == 2)
        #expect(harness.origin.callCount(for: "http://evil.example/x.jpg") == 0)
        #expect(harness.origin.totalCallCount == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:status-not-storable", "skip:status-not-storable"])
    }
}
