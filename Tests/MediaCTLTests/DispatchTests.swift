import Testing

@testable import MediaCTL

@Suite struct DispatchTests {
    static let lines: [([String], ParsedCommand, String)] = [
        (
            ["serve", "--listen", "[::1]:9090"], .serve(ServeOptions(listen: ListenAddress(host: "::1", port: 9090))),
            "serve"
        ),
        (["demo", "--keep-serving"], .demo(DemoOptions(keepServing: true)), "demo"),
        (
            ["fetch", "/catalog/coffee.jpg", "--json"], .fetch(FetchOptions(path: "/catalog/coffee.jpg", json: true)),
            "fetch"
        ),
        (["inspect", "http://o.example/a.jpg"], .inspect(InspectOptions(url: "http://o.example/a.jpg")), "inspect"),
        (["audit", "--json"], .audit(AuditOptions(json: true)), "audit"),
        (["audit", "verify"], .auditVerify(AuditVerifyOptions()), "audit verify"),
        (["policy", "check"], .policyCheck(PolicyCheckOptions()), "policy check"),
        (["purge", "--credential-file", "t"], .purge(PurgeOptions(target: .credentialFile("t"))), "purge"),
        (["reload", "--state-dir", "/var/lib/m"], .reload(ReloadOptions(stateDirectory: "/var/lib/m")), "reload"),
    ]

    @Test(arguments: lines)
    func reachesTheRightActionWithTypedOptions(_ arguments: [String], _ expected: ParsedCommand, _ name: String) async {
        let recorder = RecordingActions()
        let result = await CLIRun.run(arguments, actions: recorder)
        #expect(result == CLIRun(status: 0, stdout: "ran \(name)\n", stderr: ""))
        #expect(recorder.calls == [expected])
    }

    @Test(arguments: [ExitCode.success, .failure, .unusableInput])
    func actionStatusIsTheExitStatus(_ status: ExitCode) async {
        let recorder = RecordingActions(status: status)
        let result = await CLIRun.run(["audit"], actions: recorder)
        #expect(result.status == status.rawValue)
    }

    @Test(arguments: lines)
    func defaultActionsAreNotAvailable(_ arguments: [String], _ expected: ParsedCommand, _ name: String) async {
        let result = await CLIRun.run(arguments)
        #expect(result == CLIRun(status: 1, stdout: "", stderr: "mediactl: \(name) is not available in this build\n"))
    }

    /// A partial implementation keeps the defaults for the commands it does not provide.
    @Test func partialImplementationKeepsDefaults() async {
        struct OnlyPolicyCheck: CommandActions {
            func policyCheck(_ options: PolicyCheckOptions, context: CommandContext) async -> ExitCode {
                context.stdout.writeLine("checked \(options.policiesDirectory)")
                return .unusableInput
            }
        }
        let check = await CLIRun.run(["policy", "check"], actions: OnlyPolicyCheck())
        #expect(check == CLIRun(status: 2, stdout: "checked ./Policies\n", stderr: ""))
        let audit = await CLIRun.run(["audit"], actions: OnlyPolicyCheck())
        #expect(audit == CLIRun(status: 1, stdout: "", stderr: "mediactl: audit is not available in this build\n"))
    }

    @Test func actionsSeeTheEnvironment() async {
        struct EchoEnvironment: CommandActions {
            func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode {
                context.diagnose("HOME=\(context.environment["HOME"] ?? "-")")
                return .success
            }
        }
        let result = await CLIRun.run(["demo"], environment: ["HOME": "/home/u"], actions: EchoEnvironment())
        #expect(result == CLIRun(status: 0, stdout: "", stderr: "mediactl: HOME=/home/u\n"))
    }

    @Test func helpAndVersionNeverReachActions() async {
        let recorder = RecordingActions()
        for arguments in [[], ["help"], ["--version"], ["serve", "--help"], ["help", "purge"]] {
            _ = await CLIRun.run(arguments, actions: recorder)
        }
        #expect(recorder.calls.isEmpty)
    }

    @Test func exitCodeValues() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.failure.rawValue == 1)
        #expect(ExitCode.unusableInput.rawValue == 2)
        #expect(ExitCode.usage.rawValue == 64)
        #expect(ExitCode.usage.description == "64")
    }
}
