import Foundation
import MediaTestSupport
import Testing

/// `scripts/test`'s options: `--help` prints its usage and runs nothing; an unknown option is refused (exit 2)
/// naming the allowed ones. Both exit before anything is installed or built.
@Suite struct TestScriptOptionsTests {
    static var script: String {
        NginxOrigin.fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/test").path
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(URL(fileURLWithPath: Self.script), arguments)
    }

    @Test func helpPrintsTheUsageAndRunsNothing() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: scripts/test [--no-fuzz]\n"))
        #expect(result.stderr == "")
    }

    @Test func anUnknownOptionIsRefused() throws {
        let result = try run(["--fast"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "scripts/test: unknown option '--fast'; allowed: --no-fuzz, --help\n")
    }
}
