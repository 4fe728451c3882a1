import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// The problem `detail` of an origin exchange that failed carries the transport's own reason
/// (`OriginError.context`, which never holds a URL or credential): an idle stall is not reported
/// as the tier's `originTimeout`, and an origin that answered and then broke is not "unreachable".
@Suite struct OriginFailureDetailTests {
    static let jpegURL = "http://origin.test/catalog/coins.jpg"

    func answer(_ error: OriginError, policy: String = PipelineHarness.defaultPolicy,
                target: String = "/catalog/coins.jpg", url: String = Self.jpegURL,
                method: String = "GET") async throws -> ServiceResponse {
        let harness = try PipelineHarness(policyJSON: policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(error: error), for: url)
        return await harness.get(target, method: HTTPMethod(method))
    }

    @Test func anIdleStallNamesTheStallNotTheTierTimeout() async throws {
        let response = try await answer(OriginError(.timeout, "the connection was idle too long"))
        #expect(response.status == 504)
        #expect(PipelineSupport.problemCode(response) == "origin-timeout")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin timed out: the connection was idle too long (the tier's originTimeout is 15 s)")
    }

    @Test func theWholeTimeoutNamesTheTierTimeout() async throws {
        let response = try await answer(OriginError(.timeout, "no complete answer within 15.0 s"))
        #expect(response.status == 504)
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin timed out: no complete answer within 15.0 s (the tier's originTimeout is 15 s)")
    }

    @Test func aBodyCutShortIsNotCalledUnreachable() async throws {
        let response = try await answer(OriginError(.invalidResponse, "the connection closed before the whole body arrived (curl error 18)"))
        #expect(response.status == 502)
        #expect(PipelineSupport.problemCode(response) == "origin-invalid-response")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin exchange failed: the connection closed before the whole body arrived (curl error 18)")
    }

    @Test func aRefusedConnectionSaysSo() async throws {
        let response = try await answer(OriginError(.connectionFailed, "cannot connect (curl error 7)"))
        #expect(response.status == 502)
        #expect(PipelineSupport.problemCode(response) == "origin-connection-failed")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin exchange failed: cannot connect (curl error 7)")
    }

    @Test func passThroughMethodsGiveTheSameDetails() async throws {
        let policy = """
        { "tiers": { "http": { "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"] } },
          "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
        """
        let idle = try await answer(OriginError(.timeout, "the connection was idle too long"), policy: policy,
                                    target: "/form", url: "http://origin.test/form", method: "POST")
        #expect(idle.status == 504)
        #expect(PipelineSupport.problemMembers(idle)?["detail"] as? String
                == "the origin timed out: the connection was idle too long (the tier's originTimeout is 15 s)")
        let cut = try await answer(OriginError(.invalidResponse, "the connection broke during the response (curl error 56)"),
                                   policy: policy, target: "/form", url: "http://origin.test/form", method: "POST")
        #expect(cut.status == 502)
        #expect(PipelineSupport.problemMembers(cut)?["detail"] as? String
                == "the origin exchange failed: the connection broke during the response (curl error 56)")
    }
}
