import Testing
@testable import HTTPServer

/// Deterministic pseudo-random inputs (xorshift64*, fixed seeds): the parser never traps, and its
/// outcome does not depend on how the bytes are split into chunks.
@Suite struct ParserRobustnessTests {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static let corpus: [String] = [
        "GET /a HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n",
        "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world",
        "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nwiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\n",
        "HEAD /d HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    ]

    func summary(_ outcome: ParseOutcome) -> String {
        let targets = outcome.requests.map { "\($0.method) \($0.target) \($0.body.count) \($0.trailerFields.count)" }
        return targets.joined(separator: "|") + " error=\(outcome.error?.code.rawValue ?? "-") more=\(outcome.error == nil && outcome.needsMoreData)"
    }

    func randomChunks(_ bytes: [UInt8], _ random: inout Random) -> ParseOutcome {
        var parser = HTTPRequestParser()
        var outcome = ParseOutcome()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 1 + random.below(9))
            parser.append(bytes[offset..<end])
            offset = end
            guard drain(&parser, into: &outcome) else { return outcome }
        }
        return outcome
    }

    @Test func pipelinedCorpusParsesTheSameForAnyChunking() {
        let input = Array(Self.corpus.joined().utf8)
        let whole = parse(bytes: input)
        #expect(summary(whole) == "GET /a 0 0|POST /b 11 0|PUT /c 9 1|HEAD /d 0 0 error=- more=false")
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<200 {
            #expect(summary(randomChunks(input, &random)) == summary(whole))
        }
    }

    @Test func mutatedInputsNeverTrapAndIgnoreChunking() {
        var random = Random(state: 0xD1B5_4A32_D192_ED03)
        let interesting: [UInt8] = [0, 9, 10, 13, 32, 58, 59, 0x7F, 0xFF, 48, 70, 97]
        for round in 0..<2_000 {
            var bytes = Array(Self.corpus[round % Self.corpus.count].utf8)
            for _ in 0..<(1 + random.below(4)) {
                let position = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[position] = interesting[random.below(interesting.count)]
                case 1: bytes.remove(at: position)
                default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                }
            }
            let whole = parse(bytes: bytes)
            let chunked = randomChunks(bytes, &random)
            #expect(summary(whole) == summary(chunked), "round \(round)")
        }
    }
}
