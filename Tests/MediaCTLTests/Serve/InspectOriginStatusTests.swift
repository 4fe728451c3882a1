import MediaTestSupport
import Foundation
import Testing

@testable import MediaCTL

/// `mediactl inspect` of a non-200 answer on an image tier says what the service answers
/// (the service never stores or validates it), instead of running the storage decision on it.
@Suite struct InspectOriginStatusTests {
    @Test func missingImageSaysTheServicePassesThe404On() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let run = await CLIRun.run(["inspect", origin.base + "/catalog/missing.jpg", "--policies", policies],
                                   using: InspectCommandTests.environment)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("""
            body:             not validated (status 404)
            decision:         none (the service answers 404, origin-status-404)

            """))
        await origin.stop()
    }

    @Test func theServiceAnswerForEachOriginStatus() {
        #expect(Inspection.serviceAnswer(forOriginStatus: 302) == "502, redirect-refused")
        #expect(Inspection.serviceAnswer(forOriginStatus: 301) == "502, redirect-refused")
        #expect(Inspection.serviceAnswer(forOriginStatus: 403) == "403, origin-status-403")
        #expect(Inspection.serviceAnswer(forOriginStatus: 503) == "502, origin-error")
        #expect(Inspection.serviceAnswer(forOriginStatus: 204) == "502, origin-status-204")
    }
}
