import HTTPCaching
@testable import MediaService
import Testing

/// The hit path's helpers: decimal text and the one-pass plain-request check.
@Suite struct HitPathFormattingTests {
    @Test func decimalTextMatchesStringDescription() {
        var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 2_147_483_648, 31_536_000, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        for value in values {
            #expect(DecimalText.string(value) == String(value))
            #expect(DecimalText.string(prefix: "mediactl; hit; ttl=", value) == "mediactl; hit; ttl=" + String(value))
        }
    }

    @Test func plainRequestsHaveNoFieldThatChangesTheAnswer() {
        #expect(HitRequest.isPlain([:]))
        #expect(HitRequest.isPlain(["Host": "a", "Accept": "*/*", "User-Agent": "x", "Accept-Encoding": "gzip",
                                    "Connection": "close", "Ranges": "x", "If-None": "x", "X-Cache-Control": "no-cache"]))
        for name in ["Cache-Control", "cache-control", "CACHE-CONTROL", "Pragma", "If-None-Match", "if-modified-since",
                     "If-Match", "If-Unmodified-Since", "If-Range", "Range", "Authorization", "cookie",
                     "Content-Length", "Transfer-Encoding"] {
            #expect(!HitRequest.isPlain(HTTPFields([("Accept", "*/*"), (name, "x")])), "\(name)")
        }
    }

    @Test func linesAreKeptAsGiven() {
        let lines: [HTTPFields.Field] = [.init(name: "Age", value: "1"), .init(name: "cache-status", value: "x"),
                                         .init(name: "Age", value: "2")]
        let fields = HTTPFields(lines: lines)
        #expect(fields.fields == lines)
        #expect(fields.values(for: "age") == ["1", "2"])
        #expect(HTTPFields(lines: []).isEmpty)
    }
}
