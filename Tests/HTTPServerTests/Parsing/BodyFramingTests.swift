import Testing
@testable import HTTPServer

@Suite struct BodyFramingTests {
    @Test func getWithoutLengthHasNoBody() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outcome.requests.map(\.target) == ["/", "/2"])
        #expect(outcome.requests.map(\.hasBody) == [false, false])
    }

    @Test func getWithBodyIsReportedToTheHandler() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc")
        #expect(outcome.requests.count == 1)
        #expect(outcome.requests[0].hasBody == true)
        #expect(outcome.requests[0].body == Array("abc".utf8))
    }

    @Test func zeroContentLengthIsAnEmptyBody() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        #expect(outcome.requests.first?.hasBody == true)
        #expect(outcome.requests.first?.body == [])
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let input = "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nxy"
            + "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
        for size in [1, 5, 1_000] {
            let outcome = parse(input, chunkSize: size)
            #expect(outcome.error == nil)
            #expect(outcome.requests.map(\.target) == ["/a", "/b", "/c"])
            #expect(outcome.requests.map(\.body) == [Array("xy".utf8), [], Array("z".utf8)])
        }
    }

    @Test func partialBodyNeedsMoreData() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
        #expect(outcome.requests.isEmpty)
        #expect(outcome.needsMoreData == true)
    }

    /// RFC 9112 §6.3 lets a recipient accept a list or repeated lines of one value; refused here, strictly, so no
    /// front before mediactl can read the framing differently.
    @Test func contentLengthListsAndRepeatedLinesAre400() {
        let list = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\n\r\nok")
        #expect(list.error == HTTPParseError(code: .invalidContentLength, status: 400, message: "a Content-Length list"))
        let tight = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5,5\r\n\r\nhello")
        #expect(tight.error == HTTPParseError(code: .invalidContentLength, status: 400, message: "a Content-Length list"))
        for second in ["2", "3"] {
            let repeated = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: \(second)\r\n\r\nok")
            #expect(repeated.error == HTTPParseError(
                code: .invalidContentLength, status: 400, message: "several Content-Length fields"))
        }
    }

    @Test(arguments: ["-1", "1e3", "", "0x10", "+5", "1 2"])
    func invalidContentLengthIs400(_ value: String) {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(value)\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidContentLength, status: 400, message: "invalid Content-Length"))
    }

    @Test func contentLengthAndTransferEncodingAre400() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .conflictingFraming, status: 400, message: "both Content-Length and Transfer-Encoding"))
    }

    @Test func bodyOverLimitIs413BeforeReadingIt() {
        let configuration = HTTPRequestParser.Configuration(maxBodyBytes: 10)
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", configuration: configuration)
        #expect(outcome.error == HTTPParseError(code: .bodyTooLarge, status: 413, message: "body longer than 10 bytes"))
        let exact = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789", configuration: configuration)
        #expect(exact.requests.first?.body.count == 10)
    }

    @Test func hugeContentLengthIs413() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .bodyTooLarge, status: 413, message: "body longer than 8388608 bytes"))
    }
}

@Suite struct ChunkedBodyTests {
    @Test func decodesChunksExtensionsAndTrailers() {
        let input = "POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n"
        for size in [1, 4, 10_000] {
            let outcome = parse(input, chunkSize: size)
            #expect(outcome.error == nil)
            #expect(outcome.requests.count == 1)
            #expect(outcome.requests.first?.body == Array("hello, world!!!".utf8))
            #expect(outcome.requests.first?.hasBody == true)
            #expect(pairs(outcome.requests.first?.trailerFields ?? []) == [["X-Checksum", "abc"], ["X-Other", "1"]])
        }
    }

    @Test func transferCodingIsCaseInsensitive() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n")
        #expect(outcome.requests.first?.body == [])
        #expect(outcome.requests.first?.hasBody == true)
    }

    @Test func chunkedNotLastIs400() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .invalidTransferEncoding, status: 400, message: "chunked is not the final transfer coding"))
    }

    @Test func otherCodingsAre501() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .unsupportedTransferEncoding, status: 501, message: "unsupported transfer coding"))
    }

    @Test func transferEncodingInHTTP10Is400() {
        let outcome = parse("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .invalidTransferEncoding, status: 400, message: "Transfer-Encoding in an HTTP/1.0 request"))
    }

    @Test(arguments: ["zz\r\n", "\r\n", "5x\r\n"])
    func invalidChunkSizeIs400(_ line: String) {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + line)
        #expect(outcome.error == HTTPParseError(code: .invalidChunk, status: 400, message: "invalid chunk size"))
    }

    @Test(arguments: ["5 \r\n", "5\t\r\n", "5 ;ext\r\n", "5 x\r\n"])
    func whitespaceAfterTheChunkSizeIs400(_ line: String) {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + line + "hello\r\n0\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidChunk, status: 400, message: "whitespace after the chunk size"))
    }

    @Test(arguments: ["5\nhello\r\n0\r\n\r\n", "5\r\nhello\n0\r\n\r\n", "5\r\nhello\r\n0\n\r\n", "5\r\nhello\r\n0\r\n\n"])
    func bareLFInChunkedFramingIs400(_ body: String) {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
        #expect(outcome.error == HTTPParseError(code: .bareLineFeed, status: 400, message: "a line ended by LF without CR"))
    }

    @Test func missingCRLFAfterChunkDataIs400() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidChunk, status: 400, message: "missing CRLF after chunk data"))
    }

    @Test func chunkedBodyOverLimitIs413() {
        let configuration = HTTPRequestParser.Configuration(maxBodyBytes: 8)
        let input = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n4\r\nabcd\r\n"
        #expect(parse(input, configuration: configuration).error
            == HTTPParseError(code: .bodyTooLarge, status: 413, message: "body longer than 8 bytes"))
    }

    @Test func hugeChunkSizeIs413() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n")
        #expect(outcome.error?.code == .bodyTooLarge)
        #expect(outcome.error?.status == 413)
    }

    @Test func overlongChunkLineIs400() {
        let configuration = HTTPRequestParser.Configuration(maxChunkLineBytes: 16)
        let outcome = parse(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 40),
            configuration: configuration)
        #expect(outcome.error == HTTPParseError(
            code: .invalidChunk, status: 400, message: "chunk size line longer than 16 bytes"))
    }

    @Test func tooManyTrailerFieldsAre431() {
        let configuration = HTTPRequestParser.Configuration(maxFieldCount: 2)
        let outcome = parse(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n",
            configuration: configuration)
        #expect(outcome.error == HTTPParseError(code: .tooManyFields, status: 431, message: "more than 2 header fields"))
    }
}

@Suite struct ExpectContinueTests {
    @Test func continueIsRequestedOnceBeforeTheBody() {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        guard case .needMoreData = parser.next() else {
            Issue.record("expected needMoreData")
            return
        }
        #expect(parser.takeContinueRequest() == true)
        #expect(parser.takeContinueRequest() == false)
        parser.append(Array("abc".utf8))
        guard case .request(let request) = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == Array("abc".utf8))
    }

    @Test func noContinueWhenTheBodyAlreadyArrived() {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nab".utf8))
        _ = parser.next()
        #expect(parser.takeContinueRequest() == false)
    }

    @Test func noContinueWithoutExpect() {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /u HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n".utf8))
        _ = parser.next()
        #expect(parser.takeContinueRequest() == false)
    }
}
