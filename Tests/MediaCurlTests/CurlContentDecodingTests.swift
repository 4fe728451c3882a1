import HTTPCaching
@testable import MediaCurl
@testable import MediaService
import Testing

/// ``OriginRequest/decodesContentCoding``: an origin that content-codes although asked for
/// `identity` (a pre-gzipped object store, a CDN) still yields the image's own bytes, under the
/// same body limit (a decompression bomb stops at ``OriginRequest/maxBodyBytes`` of decoded bytes);
/// without the flag the body arrives as sent.
@Suite(.timeLimit(.minutes(1))) struct CurlContentDecodingTests {
    /// `gzip.compress(b"MARK-decoded-" * 8, mtime=0)`.
    static let gzipMark: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 243, 117, 12, 242, 214, 77, 73, 77, 206, 79, 73, 77, 209,
                                    245, 165, 29, 7, 0, 183, 0, 11, 154, 104, 0, 0, 0]
    static let mark = Array(String(repeating: "MARK-decoded-", count: 8).utf8)
    /// `gzip.compress(b"\0" * 100000, mtime=0)`: 132 bytes that decode to 100,000.
    static let gzipBomb: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 237, 193, 49, 1, 0, 0, 0, 194, 160, 245, 79, 109, 13, 15, 160]
        + [UInt8](repeating: 0, count: 95) + [128, 87, 3, 125, 149, 17, 212, 160, 134, 1, 0]

    static func origin(_ body: [UInt8], coding: String) throws -> KeepAliveOrigin {
        try KeepAliveOrigin { _, connection in
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Encoding: \(coding)\r\nETag: \"e\"\r\n"
                                 + "Content-Length: \(body.count)\r\n\r\n")
            _ = connection.write(body)
            return true
        }
    }

    @Test func gzipIsDecodedAndTheFieldsDescribeTheDecodedBytes() async throws {
        let origin = try Self.origin(Self.gzipMark, coding: "gzip")
        defer { origin.stop() }
        let response = try await CurlOriginFetcher().fetch(OriginRequest(
            url: origin.baseURL + "/a.jpg", fields: ["Accept-Encoding": "identity"], decodesContentCoding: true))
        #expect(response.body == Self.mark)
        #expect(response.fields == ["Content-Type": "image/jpeg", "ETag": "\"e\""])
        let head = origin.requests.first?.head.lowercased() ?? ""
        #expect(head.components(separatedBy: "accept-encoding").count == 2)
        #expect(head.contains("accept-encoding: identity\r\n"))
    }

    @Test func decodingAddsNoAcceptEncodingOfItsOwn() async throws {
        let origin = try Self.origin(Self.gzipMark, coding: "gzip")
        defer { origin.stop() }
        let response = try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/a.jpg", decodesContentCoding: true))
        #expect(response.body == Self.mark)
        #expect(origin.requests.first?.head.lowercased().contains("accept-encoding") == false)
    }

    @Test func withoutTheFlagTheBodyArrivesAsSent() async throws {
        let origin = try Self.origin(Self.gzipMark, coding: "gzip")
        defer { origin.stop() }
        let response = try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/a.jpg"))
        #expect(response.body == Self.gzipMark)
        #expect(response.fields["Content-Encoding"] == "gzip")
    }

    @Test func aDecompressionBombStopsAtTheBodyLimit() async throws {
        let origin = try Self.origin(Self.gzipBomb, coding: "gzip")
        defer { origin.stop() }
        await #expect(throws: OriginError(.tooLarge, "the body exceeds 10000 bytes", attempts: 1)) {
            try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/bomb.jpg", maxBodyBytes: 10_000,
                                                              decodesContentCoding: true))
        }
    }

    @Test func anUnknownCodingIsAnInvalidResponseSayingSo() async throws {
        let origin = try Self.origin(Self.gzipMark, coding: "snappy")
        defer { origin.stop() }
        await #expect(throws: OriginError(.invalidResponse, "the origin's content coding cannot be decoded (curl error 61)", attempts: 1)) {
            try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/a.jpg", decodesContentCoding: true))
        }
    }
}
