import Foundation
import MediaCore
import Testing

/// The one problem+json writer and the one JSON string escaper: byte for byte what `JSONEncoder` writes.
@Suite struct ProblemDetailsTests {
    static let texts = ["", "plain", "a/b", "quote \" and \\ backslash", "tab\tnew\nline\rcr", "\u{08}\u{0C}\u{01}\u{1F}",
                        "ünïcödé → ✓", "https://mediactl.dev/problems/x", "\u{7F}del"]

    @Test(arguments: texts) func stringsAreWrittenAsJSONEncoderWritesThem(text: String) throws {
        let escaped = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        #expect(JSONString.quoted(text) == escaped)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        #expect(JSONString.quoted(text, escapingSlashes: false) == String(decoding: try encoder.encode(text), as: UTF8.self))
    }

    @Test(arguments: texts) func theBodyIsWhatJSONEncoderWritesWithSortedKeys(detail: String) throws {
        let problem = ProblemDetails(status: 404, code: "no-route", detail: detail)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(problem.json == Array(try encoder.encode(problem)))
    }

    @Test func theExactBody() {
        #expect(String(decoding: ProblemDetails(status: 502, code: "origin-error", detail: "the origin answered 503").json,
                       as: UTF8.self)
            == #"{"code":"origin-error","detail":"the origin answered 503","status":502,"title":"Bad Gateway","type":"https://mediactl.dev/problems/origin-error"}"#)
    }

    @Test func titlesAreTheReasonPhrasesOrError() {
        #expect(ProblemDetails.title(for: 413) == "Content Too Large")
        #expect(ProblemDetails.title(for: 416) == "Range Not Satisfiable")
        #expect(ProblemDetails.title(for: 410) == "Gone")
        #expect(ProblemDetails.title(for: 299) == "Error")
        #expect(HTTPStatus.reasonPhrase(for: 299) == "")
    }
}
