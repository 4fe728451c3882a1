import HTTPCaching
import MediaCore
@testable import MediaService
import Testing

/// The hit path's helpers: the one-pass plain-request check and the field lines.
@Suite struct HitPathFormattingTests {
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
