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

    @Test func setValueReplacesOneLineInPlace() {
        var fields: HTTPFields = ["Age": "1", "cache-status": "x", "Age": "2"]
        fields.setValue("mediactl; hit; ttl=5", at: 1)
        fields.setValue(" 7\t", at: 2)
        #expect(fields.fields == [.init(name: "Age", value: "1"), .init(name: "cache-status", value: "mediactl; hit; ttl=5"),
                                  .init(name: "Age", value: "7")])
        fields.setValue("", at: 0)
        #expect(fields.fields[0] == .init(name: "Age", value: ""))
    }
}
