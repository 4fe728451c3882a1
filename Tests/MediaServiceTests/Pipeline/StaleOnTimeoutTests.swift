import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

/// `stale-if-error` over a transport failure: `fwd-status` in `Cache-Status` is the status the
/// failure would have been answered with (504 for a timeout, 502 otherwise), not always 502.
@Suite struct StaleOnTimeoutTests {
    @Test(arguments: [(OriginError(.timeout, "the connection was idle too long"), 504),
                      (OriginError(.invalidResponse, "the connection closed before the whole body arrived (curl error 18)"), 502)])
    func staleIfErrorNamesTheFailuresStatus(error: OriginError, forwardStatus: Int) async throws {
        let (harness, _, jpeg) = try await StaleServingTests.stored("max-age=60, stale-if-error=600", later: .failure(error),
                                                                    aged: 120)
        defer { Task { await harness.close() } }
        let stale = await harness.get("/catalog/camera.jpg")
        #expect(stale.status == 200)
        #expect(stale.body == jpeg)
        #expect(stale.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=\(forwardStatus); ttl=-60; detail=stale-if-error")
    }
}
