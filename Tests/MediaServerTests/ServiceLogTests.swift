import MediaService
import Synchronization
import Testing

@testable import MediaServer

/// ``ServiceLog`` formats and levels, and ``MediaService/RequestID`` (docs/operations.md, "Service log", "Request ids").
@Suite struct ServiceLogTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func textAndJSONLinesFromALevelUp() {
        let text = Lines()
        let log = ServiceLog(format: .text, level: .info, sink: { line in text.lines.withLock { $0.append(line) } })
        log.log(.debug, "not written")
        log.log(.info, "SIGHUP: policies reloaded")
        log.log(.warn, "answered 502 origin-timeout (error) on route catalog (tier public) in 15002 µs", requestID: "bff-1")
        #expect(text.all == [
            "mediactl: SIGHUP: policies reloaded",
            "mediactl: request bff-1: answered 502 origin-timeout (error) on route catalog (tier public) in 15002 µs",
        ])
        let json = Lines()
        let structured = ServiceLog(format: .json, level: .debug, now: { 1_795_950_435.123 },
                                    sink: { line in json.lines.withLock { $0.append(line) } })
        structured.log(.debug, "a \"quoted\" word", requestID: "r/1")
        structured.log(.error, "the audit log cannot be written")
        #expect(json.all == [
            #"{"time":"2026-11-29T11:07:15.123Z","level":"debug","message":"a \"quoted\" word","request_id":"r/1"}"#,
            #"{"time":"2026-11-29T11:07:15.123Z","level":"error","message":"the audit log cannot be written"}"#,
        ])
        #expect(!structured.writes(.debug) == false)
        #expect(log.writes(.warn) && !log.writes(.debug))
    }

    @Test func wellFormedFrontIDsAreKeptOthersReplaced() {
        #expect(RequestID.isWellFormed("bff-0a1b2c"))
        #expect(RequestID.isWellFormed("f47ac10b-58cc-4372-a567-0e02b2c3d479"))
        #expect(RequestID.isWellFormed("Root=1-67891233-abcdef012345678912345678"))
        #expect(RequestID.isWellFormed(String(repeating: "a", count: 128)))
        #expect(!RequestID.isWellFormed(String(repeating: "a", count: 129)))
        #expect(!RequestID.isWellFormed(""))
        #expect(!RequestID.isWellFormed("has space"))
        #expect(!RequestID.isWellFormed("quote\""))
        #expect(RequestID.isWellFormed("Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1"))
        #expect(!RequestID.isWellFormed("a,b"))
        #expect(!RequestID.isWellFormed("é"))
        #expect(RequestID.of(["X-Request-Id": "bff-1"]) == "bff-1")
        let made = RequestID.of(["X-Request-Id": "bad id"])
        #expect(made.range(of: "^[0-9a-v]{5}-[0-9a-v]{9}$", options: .regularExpression) != nil)
        #expect(RequestID.make() != RequestID.make())
        // One prefix per process, then a base32 counter: a later id counts higher (other tests may take ids between).
        let first = RequestID.make(), second = RequestID.make()
        #expect(first.prefix(6) == second.prefix(6))
        let counts = [first, second].compactMap { Int($0.dropFirst(6), radix: 32) }
        #expect(counts.count == 2 && counts[1] > counts[0])
    }
}
