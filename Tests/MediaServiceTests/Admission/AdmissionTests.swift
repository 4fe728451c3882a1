import HTTPCaching
import MediaCore
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaService

/// ``Admission`` as a value over its inputs: the snapshot, the purge epoch, the clock and the keys are given, and
/// what it admits or refuses follows from them alone (no store read, no origin asked).
@Suite struct AdmissionTests {
    /// Keys that name what they were given and count the partitions taken.
    final class RecordingKeys: RequestKeys {
        let partitions = Mutex(0)
        func partition(for token: BearerToken) -> String? {
            partitions.withLock { $0 += 1 }
            return "bearer-partition"
        }
        func partition(forSubject subject: String) -> String? { "subject-partition" }
        func digest(_ value: String) -> String { "digest-of-\(value.utf8.count)-bytes" }
    }

    func admission(_ harness: PipelineHarness, keys: RecordingKeys, epoch: Int = 7) -> Admission {
        Admission(snapshot: harness.service.hitRoutes.snapshot, epoch: epoch, clock: { 1_700_000_000 },
                  limits: .init(), keys: keys)
    }

    func request(_ target: String, _ fields: [(String, String)] = [], method: String = "GET") -> ServiceRequest {
        ServiceRequest(method: HTTPMethod(method), target: target, fields: HTTPFields(fields))
    }

    @Test func aBearerRequestTakesItsPartitionFromTheKeysOnce() throws {
        let harness = try PipelineHarness()
        let keys = RecordingKeys()
        let result = admission(harness, keys: keys).admit(request("/receipts/r-1.jpg", [("Authorization", "Bearer tok-U1")]))
        guard case .success(let context) = result else {
            Issue.record("refused")
            return
        }
        #expect(context.route.name == "receipts")
        #expect(context.tier.name == "private")
        #expect(context.partition == "bearer-partition")
        #expect(context.hasCredential)
        #expect(context.purgeEpoch == 7)
        #expect(context.upstreamURL == "http://origin.test/receipts/r-1.jpg")
        #expect(context.originFields["authorization"] == "Bearer tok-U1")
        #expect(context.originFields["accept-encoding"] == "identity")
        #expect(keys.partitions.withLock { $0 } == 1)
    }

    @Test func refusalsComeBeforeAnyKeyIsUsed() throws {
        let harness = try PipelineHarness()
        let keys = RecordingKeys()
        let admission = admission(harness, keys: keys)
        func refusal(_ request: ServiceRequest) -> (HTTPStatus, String?)? {
            guard case .failure(let refusal) = admission.admit(request) else { return nil }
            return (refusal.response.status, refusal.response.fields["WWW-Authenticate"])
        }
        #expect(refusal(request("/receipts/r-1.jpg")).map { $0.0 } == 401)
        #expect(refusal(request("/receipts/r-1.jpg")).flatMap { $0.1 } == "Bearer")
        #expect(refusal(request("/nowhere/x.jpg")).map { $0.0 } == 404)
        #expect(refusal(request("/catalog/a.jpg", method: "POST")).map { $0.0 } == 405)
        #expect(refusal(request("/catalog/a.jpg", [("Content-Length", "3")])).map { $0.0 } == 400)
        #expect(keys.partitions.withLock { $0 } == 0)
    }

    @Test func aSharedTierRequestHasNoPartitionAndNoCredentialReachesTheOrigin() throws {
        let harness = try PipelineHarness()
        let keys = RecordingKeys()
        guard case .success(let context) = admission(harness, keys: keys, epoch: 3)
            .admit(request("/catalog/a.jpg", [("Authorization", "Bearer tok-U1"), ("If-None-Match", "\"x\"")])) else {
            Issue.record("refused")
            return
        }
        #expect(context.partition == nil)
        #expect(context.purgeEpoch == 3)
        #expect(context.originFields["authorization"] == nil)
        #expect(context.originFields["if-none-match"] == nil)
        #expect(keys.partitions.withLock { $0 } == 0)
    }
}
