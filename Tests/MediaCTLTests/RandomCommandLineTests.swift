import MediaTestSupport
import Testing

@testable import MediaCTL

/// Seeded random command lines: the parser never traps and always ends in a documented way.
@Suite struct RandomCommandLineTests {
    static let vocabulary: [String] = [
        "serve", "demo", "fetch", "inspect", "audit", "verify", "policy", "check", "purge", "help", "",
        "--listen", "--listen=127.0.0.1:0", "[::1]:80", "127.0.0.1:99999", "--policies", "--policies=",
        "--state-dir", "--state-dir=/s", "--origin", "catalog=http://o/", "=", "catalog=", "--header",
        "Authorization: Bearer t1", "X:", ":", "--output", "-", "--json", "--json=1", "--keep-serving",
        "--route", "--credential-file", "--all", "--version", "--", "-x", "--bogus", "/catalog/a.jpg",
        "http://o.example/a.jpg", "ftp://x", "é", "--état", "a b", "\u{0}",
    ]

    @Test func thousandsOfCommandLines() async {
        var generator = SplitMix64(state: 0x6D65_6469_6163_746C)
        var statuses: [Int32: Int] = [:]
        for _ in 0..<3000 {
            let count = Int.random(in: 0...6, using: &generator)
            let arguments = (0..<count).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            let recorder = CommandRecorder(status: .unusableInput)
            let result = await CLIRun.run(arguments, using: recorder.environment)
            statuses[result.status, default: 0] += 1
            switch result.status {
            case 0:
                #expect(result.stderr == "", "\(arguments)")
                #expect(
                    result.stdout.hasPrefix("Usage: mediactl ") || result.stdout == "mediactl 0.1.0\n", "\(arguments)")
                #expect(recorder.calls.isEmpty, "\(arguments)")
            case 2:
                #expect(recorder.calls.count == 1, "\(arguments)")
                #expect(result.stderr == "", "\(arguments)")
            case 64:
                #expect(result.stdout == "", "\(arguments)")
                #expect(result.stderr.hasPrefix("mediactl: "), "\(arguments)")
                #expect(result.stderr.contains("\nUsage: mediactl "), "\(arguments)")
                #expect(result.stderr.hasSuffix(" --help' for more information.\n"), "\(arguments)")
                #expect(recorder.calls.isEmpty, "\(arguments)")
            default:
                Issue.record("status \(result.status) for \(arguments)")
            }
        }
        // Every outcome kind is exercised by this seed.
        #expect(statuses[0, default: 0] > 0)
        #expect(statuses[2, default: 0] > 0)
        #expect(statuses[64, default: 0] > 0)
    }
}
