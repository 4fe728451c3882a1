import Testing

@testable import MediaCTL

@Suite struct WiringTests {
    @Test func closureActionsRunWhatIsSetAndDefaultTheRest() async {
        let actions = ClosureCommandActions(
            fetch: { options, context in
                context.stdout.writeLine("GET \(options.path) \(options.headers.map(\.description))")
                return .success
            },
            purge: { options, context in
                context.diagnose("purged \(options.target)")
                return .failure
            })
        let fetch = await CLIRun.run(["fetch", "/a.jpg", "--header", "Accept: image/webp"], actions: actions)
        #expect(fetch == CLIRun(status: 0, stdout: "GET /a.jpg [\"Accept: image/webp\"]\n", stderr: ""))
        let purge = await CLIRun.run(["purge", "--route", "catalog"], actions: actions)
        #expect(purge == CLIRun(status: 1, stdout: "", stderr: "mediactl: purged route(\"catalog\")\n"))
        for (arguments, name) in [
            (["serve"], "serve"), (["demo"], "demo"), (["inspect", "http://o/a"], "inspect"), (["audit"], "audit"),
            (["audit", "verify"], "audit verify"), (["policy", "check"], "policy check"), (["reload"], "reload"),
        ] {
            let result = await CLIRun.run(arguments, actions: actions)
            #expect(
                result == CLIRun(status: 1, stdout: "", stderr: "mediactl: \(name) is not available in this build\n"))
        }
    }

    @Test func everyClosureIsReachable() async {
        let recorder = RecordingActions(status: .unusableInput)
        let actions = ClosureCommandActions(
            serve: { await recorder.serve($0, context: $1) }, demo: { await recorder.demo($0, context: $1) },
            fetch: { await recorder.fetch($0, context: $1) }, inspect: { await recorder.inspect($0, context: $1) },
            audit: { await recorder.audit($0, context: $1) },
            auditVerify: { await recorder.auditVerify($0, context: $1) },
            policyCheck: { await recorder.policyCheck($0, context: $1) },
            purge: { await recorder.purge($0, context: $1) }, reload: { await recorder.reload($0, context: $1) })
        for (arguments, _, _) in DispatchTests.lines {
            #expect(await CLIRun.run(arguments, actions: actions).status == 2)
        }
        #expect(recorder.calls == DispatchTests.lines.map(\.1))
    }

    @Test func textOutputStreamForm() async {
        var out = "before\n"
        var err = ""
        let status = await MediaCTLMain.run(["--version"], environment: [:], stdout: &out, stderr: &err)
        #expect(status == 0)
        #expect(out == "before\nmediactl 0.1.0\n")
        #expect(err == "")
        var out2 = ""
        let usage = await MediaCTLMain.run(["purge"], environment: [:], stdout: &out2, stderr: &err)
        #expect(usage == 64)
        #expect(out2 == "")
        #expect(
            err
                == CLIRun.usageError(
                    "purge requires one of --route NAME, --credential-file FILE, --subject SUB or --all", command: ["purge"]))
    }
}
