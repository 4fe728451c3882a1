import Testing

@testable import MediaCTL

@Suite struct DispatchTests {
    static let lines: [([String], ParsedCommandLine, String)] = [
        (
            ["serve", "--listen", "[::1]:9090"], .command(ServeCommand(listen: ListenAddress(host: "::1", port: 9090))),
            "serve"
        ),
        (["demo", "--keep-serving"], .command(DemoCommand(keepServing: true)), "demo"),
        (
            ["fetch", "/catalog/coffee.jpg", "--json"], .command(FetchCommand(path: "/catalog/coffee.jpg", json: true)),
            "fetch"
        ),
        (["inspect", "http://o.example/a.jpg"], .command(InspectCommand(url: "http://o.example/a.jpg")), "inspect"),
        (["audit", "--json"], .command(AuditCommand(json: true)), "audit"),
        (["audit", "verify"], .command(AuditVerifyCommand()), "audit verify"),
        (["audit", "prune", "--keep-segments", "3"], .command(AuditPruneCommand(keepSegments: 3)), "audit prune"),
        (["audit", "public-key"], .command(AuditPublicKeyCommand()), "audit public-key"),
        (["audit", "checkpoint", "--size", "4"], .command(AuditCheckpointCommand(size: 4)), "audit checkpoint"),
        (["audit", "prove", "--index", "2"], .command(AuditProveCommand(index: 2)), "audit prove"),
        (["audit", "consistency", "a", "b"], .command(AuditConsistencyCommand(old: "a", new: "b")), "audit consistency"),
        (["audit", "verify-receipt", "r.json"], .command(AuditVerifyReceiptCommand(receipt: "r.json")), "audit verify-receipt"),
        (["audit", "export", "--since", "7", "--format", "syslog"], .command(AuditExportCommand(since: 7, format: .syslog)),
         "audit export"),
        (["policy", "check"], .command(PolicyCheckCommand()), "policy check"),
        (["purge", "--credential-file", "t"], .command(PurgeCommand(target: .credentialFile("t"))), "purge"),
        (["reload", "--state-dir", "/var/lib/m"], .command(ReloadCommand(stateDirectory: "/var/lib/m")), "reload"),
        (["warm", "list.txt"], .command(WarmCommand(file: "list.txt")), "warm"),
        (
            ["sign", "--keys", "k", "--kid", "1", "--subject", "u", "--expires-in", "60", "/r.png"],
            .command(SignCommand(keysFile: "k", keyID: "1", subject: "u", expiresIn: 60, target: "/r.png")), "sign"
        ),
    ]

    @Test(arguments: lines)
    func reachesTheRightCommandWithTypedOptions(_ arguments: [String], _ expected: ParsedCommandLine, _ name: String) async {
        let recorder = CommandRecorder()
        let result = await CLIRun.run(arguments, using: recorder.environment)
        #expect(result == CLIRun(status: 0, stdout: "ran \(name)\n", stderr: ""))
        #expect(recorder.calls == [expected])
    }

    /// Every command of the tree is reached by its own words, and the list above covers the tree, so a
    /// command added to ``CommandTree/commands`` without a line here fails.
    @Test func everyCommandOfTheTreeIsReachable() {
        let paths = CommandTree.commands.map { $0.path }
        #expect(Set(paths).count == paths.count)
        #expect(Set(Self.lines.map { $0.2 }) == Set(paths.map { $0.joined(separator: " ") }))
        for type in CommandTree.commands {
            #expect(CommandTree.root.descendant(at: type.path) == type.spec.withSubcommands(of: CommandTree.root))
        }
    }

    @Test(arguments: [ExitCode.success, .failure, .unusableInput])
    func commandStatusIsTheExitStatus(_ status: ExitCode) async {
        let recorder = CommandRecorder(status: status)
        let result = await CLIRun.run(["audit"], using: recorder.environment)
        #expect(result.status == status.rawValue)
    }

    @Test func commandsSeeTheEnvironment() async {
        let environment = CommandEnvironment(interceptor: { _, context in
            context.diagnose("HOME=\(context.environment["HOME"] ?? "-")")
            return .success
        })
        let result = await CLIRun.run(["demo"], environment: ["HOME": "/home/u"], using: environment)
        #expect(result == CLIRun(status: 0, stdout: "", stderr: "mediactl: HOME=/home/u\n"))
    }

    @Test func helpAndVersionNeverReachCommands() async {
        let recorder = CommandRecorder()
        for arguments in [[], ["help"], ["--version"], ["serve", "--help"], ["help", "purge"]] {
            _ = await CLIRun.run(arguments, using: recorder.environment)
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

extension CommandSpec {
    /// This declaration with the subcommands its node has in `root`'s tree.
    fileprivate func withSubcommands(of root: CommandSpec) -> CommandSpec {
        CommandSpec(
            path: path, summary: summary, arguments: arguments, subcommands: root.descendant(at: path)?.subcommands ?? [],
            isRunnable: isRunnable, notes: notes)
    }
}
