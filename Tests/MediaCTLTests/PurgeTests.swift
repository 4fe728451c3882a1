import Testing

@testable import MediaCTL

@Suite struct PurgeTests {
    @Test func eachTargetAlone() throws {
        let expectations: [([String], PurgeOptions)] = [
            (["purge", "--route", "catalog"], PurgeOptions(target: .route("catalog"))),
            (
                ["purge", "--route=receipts", "--state-dir", "S"],
                PurgeOptions(target: .route("receipts"), stateDirectory: "S")
            ),
            (["purge", "--credential-file", "u1.token"], PurgeOptions(target: .credentialFile("u1.token"))),
            (
                ["purge", "--state-dir=S", "--credential-file=/run/t"],
                PurgeOptions(target: .credentialFile("/run/t"), stateDirectory: "S")
            ),
            (["purge", "--all"], PurgeOptions(target: .all)),
        ]
        for (arguments, expected) in expectations {
            #expect(try MediaCTLMain.parse(arguments, environment: [:]) == .command(expected), "\(arguments)")
        }
    }

    @Test func everyCombinationOfTwoOrMoreIsRefused() async {
        let route = ["--route", "catalog"]
        let file = ["--credential-file", "t"]
        let all = ["--all"]
        let combinations: [([String], String)] = [
            (route + file, "options --route and --credential-file cannot be used together"),
            (file + route, "options --route and --credential-file cannot be used together"),
            (route + all, "options --route and --all cannot be used together"),
            (all + route, "options --route and --all cannot be used together"),
            (file + all, "options --credential-file and --all cannot be used together"),
            (all + file, "options --credential-file and --all cannot be used together"),
            (all + file + route, "options --route, --credential-file and --all cannot be used together"),
        ]
        for (options, message) in combinations {
            let recorder = CommandRecorder()
            let result = await CLIRun.run(["purge"] + options, using: recorder.environment)
            #expect(result.status == 64, "\(options)")
            #expect(result.stderr == CLIRun.usageError(message, command: ["purge"]), "\(options)")
            #expect(recorder.calls.isEmpty)
        }
    }

    @Test func noneIsRefused() async {
        let result = await CLIRun.run(["purge", "--state-dir", "S"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == CLIRun.usageError(
                    "purge requires one of --route NAME, --credential-file FILE, --subject SUB or --all", command: ["purge"]))
    }

    @Test func repeatingTheSameTargetIsADuplicateNotAConflict() async {
        let result = await CLIRun.run(["purge", "--route", "a", "--route", "b"])
        #expect(result.stderr == CLIRun.usageError("option '--route' given more than once", command: ["purge"]))
        let all = await CLIRun.run(["purge", "--all", "--all"])
        #expect(all.stderr == CLIRun.usageError("option '--all' given more than once", command: ["purge"]))
    }
}
