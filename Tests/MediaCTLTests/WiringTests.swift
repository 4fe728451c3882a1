import Testing

@testable import MediaCTL

@Suite struct WiringTests {
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
                    "purge requires one of --route NAME, --credential-file FILE, --subject SUB, --url PATH, --tag T or --all", command: ["purge"]))
    }
}
