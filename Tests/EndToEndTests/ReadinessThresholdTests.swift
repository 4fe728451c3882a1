import Foundation
import MediaTestSupport
import Testing

/// `serve --ready-min-free-bytes N` through the built binary: the `diskSpace` check of `/_mediactl/ready` fails
/// under N free bytes, `0` never fails it, and the liveness endpoint is not affected.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ReadinessThresholdTests {
    @Test func aThresholdAboveTheFreeSpaceFailsReadinessOnly() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start(extraArguments: ["--ready-min-free-bytes", String(Int64.max)])
        let ready = try world.admin("/_mediactl/ready")
        #expect(ready.status == 503)
        #expect(ready.header("Content-Type") == "application/problem+json")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(ready.body)) as? [String: Any])
        #expect(body["code"] as? String == "disk-space-low")
        #expect([body["audit"], body["diskSpace"], body["policies"]].map { $0 as? String } == ["ok", "failing", "ok"])
        let detail = try #require(body["detail"] as? String)
        #expect(detail.hasPrefix("the state directory's file system has "))
        #expect(detail.hasSuffix(" free, under the readiness threshold of 8.0 EiB"))
        #expect(try world.admin("/_mediactl/health").status == 200)
        #expect(try world.get("/catalog/horse-d29d871c.jpg").status == 200)
        #expect(world.stop() == 0)
    }

    @Test func zeroTurnsTheCheckOff() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start(extraArguments: ["--ready-min-free-bytes", "0"])
        let ready = try world.admin("/_mediactl/ready")
        #expect(ready.status == 200)
        #expect(String(decoding: ready.body, as: UTF8.self) == "{\"audit\":\"ok\",\"diskSpace\":\"ok\",\"policies\":\"ok\",\"status\":\"ready\"}\n")
        #expect(world.stop() == 0)
    }

    @Test func aNegativeOrNonNumericThresholdIsAUsageError() throws {
        for value in ["-1", "x"] {
            let result = try MediactlProcess.run(["serve", "--ready-min-free-bytes", value])
            #expect(result.exitCode == 64)
            #expect(result.stderr.hasPrefix(
                "mediactl: invalid --ready-min-free-bytes '\(value)': expected a whole number from 0 to 9223372036854775807\nUsage: mediactl serve "))
        }
    }
}
