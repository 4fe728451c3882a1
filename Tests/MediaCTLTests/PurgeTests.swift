import Testing

@testable import MediaCTL
@testable import MediaServer

@Suite struct PurgeTests {
    @Test func eachTargetAlone() throws {
        let expectations: [([String], PurgeCommand)] = [
            (["purge", "--route", "catalog"], PurgeCommand(target: .route("catalog"))),
            (
                ["purge", "--route=receipts", "--state-dir", "S"],
                PurgeCommand(target: .route("receipts"), stateDirectory: "S")
            ),
            (["purge", "--credential-file", "u1.token"], PurgeCommand(target: .credentialFile("u1.token"))),
            (
                ["purge", "--state-dir=S", "--credential-file=/run/t"],
                PurgeCommand(target: .credentialFile("/run/t"), stateDirectory: "S")
            ),
            (["purge", "--all"], PurgeCommand(target: .all)),
            (["purge", "--tag", "product-42"], PurgeCommand(target: .tag("product-42"))),
            (["purge", "--url", "/catalog/a.jpg?w=144"], PurgeCommand(target: .url("/catalog/a.jpg?w=144"))),
            (["purge", "--soft", "--tag=product-42"], PurgeCommand(target: .tag("product-42"), soft: true)),
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
                    "purge requires one of --route NAME, --credential-file FILE, --subject SUB, --url PATH, --tag T or --all", command: ["purge"]))
    }

    @Test func repeatingTheSameTargetIsADuplicateNotAConflict() async {
        let result = await CLIRun.run(["purge", "--route", "a", "--route", "b"])
        #expect(result.stderr == CLIRun.usageError("option '--route' given more than once", command: ["purge"]))
        let all = await CLIRun.run(["purge", "--all", "--all"])
        #expect(all.stderr == CLIRun.usageError("option '--all' given more than once", command: ["purge"]))
    }

    @Test func softNeedsATagAndATagIsVisibleASCII() async {
        let soft = await CLIRun.run(["purge", "--soft", "--route", "catalog"])
        #expect(soft.status == 64)
        #expect(soft.stderr == CLIRun.usageError("option --soft needs --tag", command: ["purge"]))
        let spaced = await CLIRun.run(["purge", "--tag", "two words"])
        #expect(spaced.status == 64)
        #expect(spaced.stderr == CLIRun.usageError(
            "invalid --tag: expected 1 to 256 visible ASCII characters (no space)", command: ["purge"]))
        let both = await CLIRun.run(["purge", "--tag", "t", "--all"])
        #expect(both.stderr == CLIRun.usageError("options --tag and --all cannot be used together", command: ["purge"]))
    }

    @Test func theRequestBodyNamesTheTagAndSoft() throws {
        #expect(String(decoding: try PurgeCommand.requestBody(.tag("p-42")), as: UTF8.self) == #"{"tag":"p-42"}"#)
        #expect(String(decoding: try PurgeCommand.requestBody(.tag("p-42"), soft: true), as: UTF8.self)
            == #"{"soft":true,"tag":"p-42"}"#)
        #expect(PurgeCommand.done(1, soft: false) == "purged 1 entry")
        #expect(PurgeCommand.done(3, soft: true) == "marked 3 entries stale")
    }

    @Test func theAdminBodyAndTheCommandLineCarryAURL() async throws {
        #expect(PurgeRequestBody.parse(Array(#"{"url":"/catalog/a.jpg"}"#.utf8)) == .success(.url("/catalog/a.jpg")))
        let shape = PurgeRequestBody.Refusal(code: "invalid-purge-request", detail: PurgeRequestBody.shape)
        #expect(PurgeRequestBody.parse(Array(#"{"url":"catalog/a.jpg"}"#.utf8)) == .failure(shape))
        #expect(PurgeRequestBody.parse(Array(#"{"url":7}"#.utf8)) == .failure(shape))
        #expect(String(decoding: try PurgeCommand.requestBody(.url("/catalog/a.jpg")), as: UTF8.self) == #"{"url":"/catalog/a.jpg"}"#)
        for bad in ["catalog/a.jpg", "/a b.jpg"] {
            let refused = await CLIRun.run(["purge", "--url", bad])
            #expect(refused.status == 64)
            #expect(refused.stderr == CLIRun.usageError(
                "invalid --url: expected a path as clients request it, e.g. /catalog/a.jpg", command: ["purge"]))
        }
    }

    @Test func theAdminBodyParsesTagsAndSoft() {
        #expect(PurgeRequestBody.parse(Array(#"{"tag":"p-42"}"#.utf8)) == .success(.tag("p-42", soft: false)))
        #expect(PurgeRequestBody.parse(Array(#"{"tag":"p-42","soft":true}"#.utf8)) == .success(.tag("p-42", soft: true)))
        #expect(PurgeRequestBody.parse(Array(#"{"soft":false,"tag":"p-42"}"#.utf8)) == .success(.tag("p-42", soft: false)))
        let shape = PurgeRequestBody.Refusal(code: "invalid-purge-request", detail: PurgeRequestBody.shape)
        #expect(PurgeRequestBody.parse(Array(#"{"tag":"p-42","soft":1}"#.utf8)) == .failure(shape))
        #expect(PurgeRequestBody.parse(Array(#"{"route":"r","soft":true}"#.utf8)) == .failure(shape))
        #expect(PurgeRequestBody.parse(Array(#"{"tag":"a b"}"#.utf8)) == .failure(.init(
            code: "invalid-tag", detail: "the tag is not 1 to 256 visible ASCII characters (no space)")))
    }
}
