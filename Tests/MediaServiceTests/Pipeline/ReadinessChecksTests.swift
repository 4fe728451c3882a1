import HTTPCaching
import MediaCore
import MediaPolicy
@testable import MediaService
import MediaTestSupport
import Testing

/// `/_mediactl/ready`'s three checks (docs/operations.md, "Liveness and readiness"): the audit writer (AuditOutageTests),
/// the state directory's free space and the last policy reload, each named in the 503's JSON body.
@Suite struct ReadinessChecksTests {
    static func body(_ response: ServiceResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func lowFreeSpaceFailsDiskSpace() async throws {
        let harness = try PipelineHarness { $0.readinessMinimumFreeBytes = Int64.max }
        defer { Task { await harness.close() } }
        let ready = await harness.get("/_mediactl/ready")
        #expect(ready.status == 503)
        #expect(ready.fields[.contentType] == "application/problem+json")
        #expect(ready.fields[.retryAfter] == nil)
        // The free space itself moves with the machine: everything around it is exact.
        let body = Self.body(ready)
        let head = #"{"audit":"ok","code":"disk-space-low","detail":"the state directory's file system has "#
        let tail = #" free, under the readiness threshold of 8.0 EiB","diskSpace":"failing","policies":"ok","status":503,"title":"Service Unavailable","type":"https://mediactl.dev/problems/disk-space-low"}"#
        #expect(body.hasPrefix(head) && body.hasSuffix(tail), "\(body)")
        let free = body.dropFirst(head.count).dropLast(tail.count)
        #expect(free.hasSuffix(" GiB") || free.hasSuffix(" TiB") || free.hasSuffix(" MiB"), "\(free)")
        #expect((await harness.get("/_mediactl/ready", method: "HEAD")).body.isEmpty)
    }

    @Test func aFailedReloadFailsPoliciesUntilOneSucceeds() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        #expect(Self.body(await harness.get("/_mediactl/ready")) == #"{"audit":"ok","diskSpace":"ok","policies":"ok","status":"ready"}"# + "\n")
        harness.service.countFailedReload(reason: "1 problem(s) in /etc/mediactl: tiers.public.maxTTL: -1 is out of range")
        let unready = await harness.get("/_mediactl/ready")
        #expect(unready.status == 503)
        let digest = harness.service.policyDigest
        #expect(Self.body(unready) == #"{"audit":"ok","code":"policy-reload-failed","detail":"the last policy reload failed (1 problem(s) in /etc/mediactl: tiers.public.maxTTL: -1 is out of range): the set in force, sha256 \#(digest), is not the one in the files","diskSpace":"ok","policies":"failing","status":503,"title":"Service Unavailable","type":"https://mediactl.dev/problems/policy-reload-failed"}"#)
        try harness.service.reload(policies: harness.service.policies, digest: digest)
        #expect((await harness.get("/_mediactl/ready")).status == 200)
    }
}
