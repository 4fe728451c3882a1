import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// RFC 9110 §14 through the pipeline on a generic (conformance-mode) tier: `Range` requests answered from a
/// stored complete `200` (fresh or validated), `416`, ignored ranges, `If-Range` (§13.1.5), and misses.
@Suite struct RangeConformanceServiceTests {
    static let policy = """
    { "tiers": { "http": { "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"] } },
      "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
    """
    static let text = Array("01234567890".utf8)

    /// A harness whose origin serves ``text`` at `/r` with `fields` (`Date` now, `max-age=3600` unless given).
    private func stored(_ fields: [(String, String)] = []) async throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        var reply = HTTPFields([("Date", HTTPDate.format(Int64(harness.clock.now)))] + fields)
        if !reply.contains("cache-control") { reply.append("Cache-Control", "max-age=3600") }
        harness.origin.setReply(.init(status: 200, fields: reply, body: Self.text), for: "http://origin.test/r")
        let first = await harness.get("/r")
        #expect(first.status == 200)
        #expect(first.outcome.storage == .stored(.memory))
        return harness
    }

    @Test(arguments: [
        ("bytes=0-1", "01", "bytes 0-1/11"),
        ("bytes=1-", "1234567890", "bytes 1-10/11"),
        ("bytes=-1", "0", "bytes 10-10/11"),
        ("bytes=-3", "890", "bytes 8-10/11"),
        ("bytes=0-0", "0", "bytes 0-0/11"),
        ("bytes=5-999", "567890", "bytes 5-10/11"),
        ("bytes=0-", "01234567890", "bytes 0-10/11"),
        ("bytes=0-1,500-", "01", "bytes 0-1/11"),
    ])
    func aStoredResponseAnswersOneRange(range: String, body: String, contentRange: String) async throws {
        let harness = try await stored([("A", "1"), ("ETag", "\"t1\"")])
        defer { Task { await harness.close() } }
        harness.clock.advance(5)
        let partial = await harness.get("/r", [("Range", range)])
        #expect(partial.status == 206)
        #expect(String(decoding: partial.body, as: UTF8.self) == body)
        #expect(partial.fields["Content-Range"] == contentRange)
        #expect(partial.fields["Content-Length"] == String(body.utf8.count))
        #expect(partial.fields["Accept-Ranges"] == "bytes")
        #expect(partial.fields["A"] == "1")
        #expect(partial.fields["ETag"] == "\"t1\"")
        #expect(partial.fields["Cache-Control"] == "max-age=3600")
        #expect(partial.fields["Age"] == "5")
        #expect(partial.fields["Cache-Status"] == "mediactl; hit; ttl=3595")
        #expect(partial.outcome.storage == .hit)
        #expect(harness.origin.totalCallCount == 1)
        // The fast path gives the same answer (a Range request is not plain: it takes the full path).
        let sync = try #require(harness.service.handleIfCached(ServiceRequest(target: "/r", fields: ["Range": range])))
        #expect(sync.status == 206)
        #expect(sync.body == partial.body)
        #expect(sync.fields == partial.fields)
    }

    @Test func plainAnswersAdvertiseByteRanges() async throws {
        let harness = try await stored([("Accept-Ranges", "none")])
        defer { Task { await harness.close() } }
        let hit = await harness.get("/r")
        #expect(hit.status == 200)
        #expect(hit.fields.values(for: "Accept-Ranges") == ["bytes"])
        let fast = try #require(harness.service.handleIfCached(ServiceRequest(target: "/r")))
        #expect(fast.fields.values(for: "Accept-Ranges") == ["bytes"])
        #expect(fast.fields["Content-Range"] == nil)
    }

    @Test(arguments: ["bytes=11-", "bytes=11-20", "bytes=-0", "bytes=99999999999999999999-", "bytes=20-30,-0"])
    func noSatisfiableRangeIs416(range: String) async throws {
        let harness = try await stored()
        defer { Task { await harness.close() } }
        let refused = await harness.get("/r", [("Range", range)])
        #expect(refused.status == 416)
        #expect(refused.fields["Content-Range"] == "bytes */11")
        #expect(refused.fields["Content-Type"] == "application/problem+json")
        #expect(refused.fields["Accept-Ranges"] == "bytes")
        #expect(refused.fields["Cache-Status"] == "mediactl; hit; ttl=3600")
        #expect(PipelineSupport.problemCode(refused) == "range-not-satisfiable")
        #expect(harness.origin.totalCallCount == 1)
    }

    /// §14.2: an invalid field, another unit and several satisfiable ranges are ignored (no multipart/byteranges).
    @Test(arguments: ["bytes=5-3", "items=0-1", "bytes 0-1", "bytes=0-1,5-6", "bytes=0-1,0-1", "bytes=-"])
    func ignoredRangesGetTheWholeRepresentation(range: String) async throws {
        let harness = try await stored()
        defer { Task { await harness.close() } }
        let whole = await harness.get("/r", [("Range", range)])
        #expect(whole.status == 200)
        #expect(whole.body == Self.text)
        #expect(whole.fields["Content-Length"] == "11")
        #expect(whole.fields["Content-Range"] == nil)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func headIgnoresRange() async throws {
        let harness = try await stored()
        defer { Task { await harness.close() } }
        let head = await harness.get("/r", [("Range", "bytes=0-1")], method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.fields["Content-Length"] == "11")
        #expect(head.fields["Content-Range"] == nil)
        #expect(head.fields["Accept-Ranges"] == "bytes")
    }

    /// §13.2.2: a client conditional that holds answers 304 before `Range` is looked at.
    @Test func aMatchingIfNoneMatchWinsOverRange() async throws {
        let harness = try await stored([("ETag", "\"t1\"")])
        defer { Task { await harness.close() } }
        let notModified = await harness.get("/r", [("Range", "bytes=0-1"), ("If-None-Match", "\"t1\"")])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.fields["Content-Range"] == nil)
    }

    @Test(arguments: [
        ("\"t1\"", 206), ("\"t2\"", 200), ("W/\"t1\"", 200), ("garbage", 200),
    ])
    func ifRangeWithAnEntityTag(ifRange: String, status: Int) async throws {
        let harness = try await stored([("ETag", "\"t1\"")])
        defer { Task { await harness.close() } }
        let answer = await harness.get("/r", [("Range", "bytes=2-3"), ("If-Range", ifRange)])
        #expect(answer.status == status)
        #expect(answer.body == (status == 206 ? Array("23".utf8) : Self.text))
        #expect(answer.fields["Content-Range"] == (status == 206 ? "bytes 2-3/11" : nil))
    }

    @Test func ifRangeWithTheStoredLastModified() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let now = Int64(harness.clock.now)
        let modified = HTTPDate.format(now - 3600)
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600", "Date": HTTPDate.format(now),
                                               "Last-Modified": modified], body: Self.text), for: "http://origin.test/r")
        _ = await harness.get("/r")
        let matching = await harness.get("/r", [("Range", "bytes=-2"), ("If-Range", modified)])
        #expect(matching.status == 206)
        #expect(matching.body == Array("90".utf8))
        let other = await harness.get("/r", [("Range", "bytes=-2"), ("If-Range", HTTPDate.format(now - 3599))])
        #expect(other.status == 200)
        #expect(other.body == Self.text)
        // An If-Range that does not match sends the whole representation even for an unsatisfiable range.
        let unsatisfiable = await harness.get("/r", [("Range", "bytes=50-"), ("If-Range", "\"nope\"")])
        #expect(unsatisfiable.status == 200)
        #expect(harness.origin.totalCallCount == 1)
    }

    /// A stale stored response is validated without the client's `Range` (and `If-Range`); the `304`'s fields
    /// update it, fields the `304` did not carry stay, and the range is answered from the updated response
    /// (cache-tests `partial-use-headers`, `partial-use-stored-headers`; RFC 9111 §3.2, §4.3.4).
    @Test func aValidatedStoredResponseAnswersTheRangeWithUpdatedFields() async throws {
        let origin = ScriptedOrigin { request, call in
            call == 1
                ? OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "ETag": "\"t1\"", "A": "1", "B": "kept"],
                                 body: Self.text)
                : OriginResponse(status: 304, fields: ["Cache-Control": "max-age=60", "ETag": "\"t1\"", "A": "2"])
        }
        let harness = try PipelineHarness(policyJSON: Self.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/r")
        harness.clock.advance(61)
        let partial = await harness.get("/r", [("Range", "bytes=0-1"), ("If-Range", "\"t1\"")])
        #expect(partial.status == 206)
        #expect(partial.body == Array("01".utf8))
        #expect(partial.fields["Content-Range"] == "bytes 0-1/11")
        #expect(partial.fields["A"] == "2")
        #expect(partial.fields["B"] == "kept")
        #expect(partial.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
        #expect(origin.callCount == 2)
        let validation = origin.requests[1]
        #expect(validation.fields["If-None-Match"] == "\"t1\"")
        #expect(validation.fields["Range"] == nil)
        #expect(validation.fields["If-Range"] == nil)
        // The updated response is stored: the next range is a hit with the new fields.
        let hit = await harness.get("/r", [("Range", "bytes=-1")])
        #expect(hit.status == 206)
        #expect(hit.body == Array("0".utf8))
        #expect(hit.fields["A"] == "2")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(origin.callCount == 2)
    }

    /// A miss forwards `Range` (conformance mode passes request fields through); the origin's `206` is passed
    /// through as sent and not stored (RFC 9111 §3.4: storing partial content is optional).
    @Test func aMissForwardsRangeAndPassesThe206Through() async throws {
        let origin = ScriptedOrigin { request, _ in
            guard request.fields["Range"] == "bytes=0-1" else {
                return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: Self.text)
            }
            return OriginResponse(status: 206, fields: ["Cache-Control": "max-age=60", "Content-Range": "bytes 0-1/11"],
                                  body: Array("01".utf8))
        }
        let harness = try PipelineHarness(policyJSON: Self.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        let partial = await harness.get("/r", [("Range", "bytes=0-1")])
        #expect(partial.status == 206)
        #expect(partial.body == Array("01".utf8))
        #expect(partial.fields["Content-Range"] == "bytes 0-1/11")
        #expect(partial.fields["Content-Length"] == "2")
        #expect(partial.outcome.storage == .notStored)
        #expect(partial.outcome.reason == "status-not-storable")
        #expect(origin.requests.first?.fields["Range"] == "bytes=0-1")
        // Nothing was stored: the whole representation is a miss, then ranges come from it.
        let whole = await harness.get("/r")
        #expect(whole.status == 200)
        #expect(whole.outcome.storage == .stored(.memory))
        let fromStore = await harness.get("/r", [("Range", "bytes=0-1")])
        #expect(fromStore.status == 206)
        #expect(fromStore.outcome.storage == .hit)
        #expect(origin.callCount == 2)
    }

    /// An origin that ignores `Range` on a miss answers `200`: it is stored and the range is cut from it.
    @Test func aMissAnsweredWithTheWholeRepresentationIsStoredAndRanged() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: Self.text), for: "http://origin.test/r")
        let partial = await harness.get("/r", [("Range", "bytes=3-4")])
        #expect(partial.status == 206)
        #expect(partial.body == Array("34".utf8))
        #expect(partial.fields["Content-Range"] == "bytes 3-4/11")
        #expect(partial.outcome.storage == .stored(.memory))
        let hit = await harness.get("/r")
        #expect(hit.status == 200)
        #expect(hit.outcome.storage == .hit)
        #expect(harness.origin.totalCallCount == 1)
    }

    /// Only a `200` is a representation to take a part of: another stored status is served whole.
    @Test func otherStoredStatusesIgnoreRange() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 404, fields: ["Cache-Control": "max-age=60"], body: Array("missing".utf8)),
                                for: "http://origin.test/gone")
        _ = await harness.get("/gone")
        let answer = await harness.get("/gone", [("Range", "bytes=0-1")])
        #expect(answer.status == 404)
        #expect(answer.body == Array("missing".utf8))
        #expect(answer.fields["Accept-Ranges"] == nil)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func anEmptyRepresentation() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: []), for: "http://origin.test/empty")
        _ = await harness.get("/empty")
        let suffix = await harness.get("/empty", [("Range", "bytes=-5")])
        #expect(suffix.status == 200)
        #expect(suffix.fields["Content-Length"] == "0")
        let first = await harness.get("/empty", [("Range", "bytes=0-")])
        #expect(first.status == 416)
        #expect(first.fields["Content-Range"] == "bytes */0")
    }
}
