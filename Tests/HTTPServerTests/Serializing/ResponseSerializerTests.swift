import Testing
import MediaCore
@testable import HTTPServer

@Suite struct ResponseSerializerTests {
    func text(_ response: HTTPServerResponse, head: Bool = false, connection: HTTPResponseSerializer.ConnectionField = .omitted,
              date: String? = nil) -> String {
        String(decoding: HTTPResponseSerializer.serialize(response, headRequest: head, connection: connection, date: date),
               as: UTF8.self)
    }

    @Test func statusLineFieldsLengthAndBody() {
        let response = HTTPServerResponse(status: 200, headerFields: [("Content-Type", "image/jpeg"), ("ETag", "\"a\"")],
                                          body: Array("abc".utf8))
        #expect(text(response, date: "Sun, 06 Nov 1994 08:49:37 GMT")
            == "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nETag: \"a\"\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Length: 3\r\n\r\nabc")
    }

    @Test func theAdditionalFieldFollowsTheFieldsWithoutChangingThem() {
        var response = HTTPServerResponse(status: 200, headerFields: [("Content-Type", "image/jpeg")], body: Array("abc".utf8))
        response.additionalField = .init(name: "X-Request-Id", value: "k3f9q-00000001a")
        #expect(text(response, date: "Sun, 06 Nov 1994 08:49:37 GMT")
            == "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nX-Request-Id: k3f9q-00000001a\r\n"
            + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 3\r\n\r\nabc")
        #expect(response.headerFields.count == 1)
        #expect(response.field("x-request-id") == "k3f9q-00000001a")
        #expect(response.field("Content-Type") == "image/jpeg")
    }

    @Test func serverOwnsFramingFields() {
        let response = HTTPServerResponse(
            status: 404, headerFields: [("Content-Length", "99"), ("Connection", "keep-alive"), ("Transfer-Encoding", "chunked")],
            body: [])
        #expect(text(response, connection: .close) == "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }

    @Test func headResponseHasLengthButNoBody() {
        let response = HTTPServerResponse(status: 200, body: Array("hello".utf8))
        #expect(text(response, head: true) == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
        let announced = HTTPServerResponse(status: 200, headerFields: [("Content-Length", "16384")])
        #expect(text(announced, head: true) == "HTTP/1.1 200 OK\r\nContent-Length: 16384\r\n\r\n")
    }

    @Test func noContentAndNotModifiedHaveNoBody() {
        #expect(text(HTTPServerResponse(status: 204, body: [1, 2])) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(text(HTTPServerResponse(status: 304, headerFields: [("ETag", "\"x\"")]))
            == "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n")
    }

    @Test func keepAliveForHTTP10AndExistingDateWins() {
        let response = HTTPServerResponse(status: 200, headerFields: [("date", "X")])
        #expect(text(response, connection: .keepAlive, date: "Y")
            == "HTTP/1.1 200 OK\r\ndate: X\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func customReasonAndUnknownStatus() {
        #expect(text(HTTPServerResponse(status: 299)) == "HTTP/1.1 299 \r\nContent-Length: 0\r\n\r\n")
        #expect(text(HTTPServerResponse(status: 200, reasonPhrase: "Fine")) == "HTTP/1.1 200 Fine\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func fieldValuesCannotInjectLines() {
        let response = HTTPServerResponse(status: 200, headerFields: [("X-A", "a\r\nSet-Cookie: b")])
        #expect(text(response) == "HTTP/1.1 200 OK\r\nX-A: a  Set-Cookie: b\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func problemJSON() {
        let response = HTTPServerResponse.problem(status: 413, detail: "body \"too\" large")
        #expect(response.field("content-type") == "application/problem+json")
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"code":"body-too-large","detail":"body \"too\" large","status":413,"title":"Content Too Large","type":"https://mediactl.dev/problems/body-too-large"}"#)
    }

    @Test func httpDate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test(arguments: [0, 7, 9, 10, 11, 99, 100, 101, 16_092, 100_000, 1_048_576])
    func contentLengthDigits(_ length: Int) {
        let response = HTTPServerResponse(status: 200, body: [UInt8](repeating: 0x7A, count: length))
        #expect(text(response) == "HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: "z", count: length))
    }

    @Test func headAloneIsTheSerializationWithoutTheBody() {
        let response = HTTPServerResponse(
            status: 200, headerFields: [("Content-Type", "image/jpeg"), ("X-Bad", "a\rb\nc\u{0}d")], body: Array("jpeg".utf8))
        var head: [UInt8] = Array("stale".utf8)
        head.removeAll(keepingCapacity: true)
        let sendsBody = HTTPResponseSerializer.serializeHead(
            response, headRequest: false, connection: .keepAlive, date: "D", into: &head)
        #expect(sendsBody)
        #expect(String(decoding: head, as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nX-Bad: a b c d\r\nDate: D\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\n")
        #expect(head + response.body == HTTPResponseSerializer.serialize(
            response, headRequest: false, connection: .keepAlive, date: "D"))
        var headOnly: [UInt8] = []
        #expect(!HTTPResponseSerializer.serializeHead(response, headRequest: true, connection: .omitted, into: &headOnly))
        #expect(!HTTPResponseSerializer.serializeHead(
            HTTPServerResponse(status: 304, body: []), headRequest: false, connection: .omitted, into: &headOnly))
    }

    @Test func interimResponseIsStatusLineAndFieldsWithoutFramingOrDate() {
        let interim = HTTPServerInterimResponse(status: 103, headerFields: [
            ("Link", "</a.css>; rel=preload"), ("Content-Length", "5"), ("Connection", "close"),
            ("Transfer-Encoding", "chunked"), ("X-Split", "a\r\nb"),
        ])
        #expect(String(decoding: HTTPResponseSerializer.serializeInterim(interim), as: UTF8.self)
            == "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nX-Split: a  b\r\n\r\n")
        #expect(String(decoding: HTTPResponseSerializer.serializeInterim(HTTPServerInterimResponse(status: 102)), as: UTF8.self)
            == "HTTP/1.1 102 Processing\r\n\r\n")
        #expect(String(decoding: HTTPResponseSerializer.serializeInterim(HTTPServerInterimResponse(status: 199, reasonPhrase: "Odd")),
                       as: UTF8.self) == "HTTP/1.1 199 Odd\r\n\r\n")
    }
}
