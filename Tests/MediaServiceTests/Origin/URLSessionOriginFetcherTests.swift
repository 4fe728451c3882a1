import HTTPCaching
import MediaService
import Testing

/// URLSession-only behaviour; the shared contract is in ``OriginFetcherContractTests``.
@Suite(.timeLimit(.minutes(1))) struct URLSessionOriginFetcherTests {
    @Test func defaultConfiguration() {
        let configuration = URLSessionOriginFetcher().configuration
        #expect(configuration == .init(idleTimeout: 10, maxRetries: 2, retryBaseDelay: 0.05, maxConnectionsPerHost: 16,
                                       userAgent: "mediactl"))
    }

    @Test func decodedBodiesLoseTheirEncodingAndHopByHopFields() async throws {
        let server = try OriginFetcherContractTests.origin()
        defer { server.stop() }
        let response = try await URLSessionOriginFetcher().fetch(OriginRequest(url: server.baseURL + "/gzip"))
        #expect(response.body == Array("MARK-GZ".utf8))
        #expect(response.fields == HTTPFields())
    }
}
