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

    /// Every code of the IANA HTTP Status Code Registry has its phrase (an origin's 451 is sent with one).
    @Test func everyRegisteredStatusHasItsReasonPhrase() {
        let registered = [100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304,
                          305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415,
                          416, 417, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506,
                          507, 508, 510, 511]
        #expect(registered.filter { HTTPStatus.reasonPhrase(for: $0).isEmpty } == [])
        #expect(HTTPStatus.reasonPhrase(for: 451) == "Unavailable For Legal Reasons")
        #expect(HTTPStatus.reasonPhrase(for: 425) == "Too Early")
        #expect(HTTPStatus.reasonPhrase(for: 511) == "Network Authentication Required")
        #expect(ProblemDetails.title(for: 451) == "Unavailable For Legal Reasons")
    }
}
