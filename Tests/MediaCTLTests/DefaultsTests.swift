import Testing

@testable import MediaCTL

@Suite struct DefaultsTests {
    static let stateEnvironment = ["MEDIACTL_STATE_DIR": "/var/lib/mediactl"]

    @Test func serveDefaults() throws {
        let command = try MediaCTLMain.parse(["serve"], environment: [:])
        #expect(
            command
                == .command(
                    ServeCommand(
                        listen: ListenAddress(host: "127.0.0.1", port: 8080), policiesDirectory: "./Policies",
                        stateDirectory: "./.mediactl", origins: [])))
    }

    @Test func everyCommandDefaults() throws {
        let expectations: [([String], ParsedCommandLine)] = [
            (["demo"], .command(DemoCommand(keepServing: false))),
            (
                ["fetch", "/catalog/coffee.jpg"],
                .command(
                    FetchCommand(
                        path: "/catalog/coffee.jpg", headers: [], outputFile: nil, json: false,
                        policiesDirectory: "./Policies", stateDirectory: "./.mediactl"))
            ),
            (
                ["inspect", "http://127.0.0.1:8081/catalog/a.jpg"],
                .command(InspectCommand(url: "http://127.0.0.1:8081/catalog/a.jpg", policiesDirectory: "./Policies"))
            ),
            (
                ["audit"],
                .command(AuditCommand(stateDirectories: ["./.mediactl"], policiesDirectory: "./Policies", json: false))
            ),
            (["audit", "verify"], .command(AuditVerifyCommand(stateDirectory: "./.mediactl"))),
            (["policy", "check"], .command(PolicyCheckCommand(policiesDirectory: "./Policies"))),
            (["purge", "--all"], .command(PurgeCommand(target: .all, stateDirectory: "./.mediactl"))),
        ]
        for (arguments, expected) in expectations {
            #expect(try MediaCTLMain.parse(arguments, environment: [:]) == expected, "\(arguments)")
        }
    }

    @Test func publicInitDefaultsMatchTheParser() throws {
        #expect(try MediaCTLMain.parse(["serve"], environment: [:]) == .command(ServeCommand()))
        #expect(try MediaCTLMain.parse(["audit"], environment: [:]) == .command(AuditCommand()))
        #expect(try MediaCTLMain.parse(["fetch", "/a"], environment: [:]) == .command(FetchCommand(path: "/a")))
        #expect(ListenAddress.default.description == "127.0.0.1:8080")
        #expect(CommandDefaults.policiesDirectory == "./Policies")
        #expect(CommandDefaults.stateDirectory == "./.mediactl")
        #expect(CommandDefaults.stateDirectoryVariable == "MEDIACTL_STATE_DIR")
    }

    @Test func stateDirectoryComesFromTheEnvironment() throws {
        let expectations: [([String], ParsedCommandLine)] = [
            (["serve"], .command(ServeCommand(stateDirectory: "/var/lib/mediactl"))),
            (["fetch", "/a"], .command(FetchCommand(path: "/a", stateDirectory: "/var/lib/mediactl"))),
            (["audit"], .command(AuditCommand(stateDirectories: ["/var/lib/mediactl"]))),
            (["audit", "verify"], .command(AuditVerifyCommand(stateDirectory: "/var/lib/mediactl"))),
            (["purge", "--all"], .command(PurgeCommand(target: .all, stateDirectory: "/var/lib/mediactl"))),
        ]
        for (arguments, expected) in expectations {
            #expect(try MediaCTLMain.parse(arguments, environment: Self.stateEnvironment) == expected, "\(arguments)")
        }
    }

    @Test func explicitStateDirectoryWinsOverTheEnvironment() throws {
        let spaced = try MediaCTLMain.parse(["audit", "--state-dir", "/srv/state"], environment: Self.stateEnvironment)
        let joined = try MediaCTLMain.parse(["audit", "--state-dir=/srv/state"], environment: Self.stateEnvironment)
        #expect(spaced == .command(AuditCommand(stateDirectories: ["/srv/state"])))
        #expect(joined == spaced)
    }

    @Test func emptyEnvironmentVariableFallsBackToTheDefault() throws {
        let command = try MediaCTLMain.parse(["audit", "verify"], environment: ["MEDIACTL_STATE_DIR": ""])
        #expect(command == .command(AuditVerifyCommand(stateDirectory: "./.mediactl")))
    }

    @Test func otherEnvironmentVariablesAreIgnored() throws {
        let command = try MediaCTLMain.parse(["serve"], environment: ["MEDIACTL_POLICIES": "/x", "STATE_DIR": "/y"])
        #expect(command == .command(ServeCommand()))
    }

    @Test func everyOptionOfServe() throws {
        let command = try MediaCTLMain.parse(
            [
                "serve", "--listen", "0.0.0.0:0", "--policies", "/etc/mediactl", "--state-dir=/srv/m",
                "--origin", "catalog=https://cdn.example/catalog/",
            ],
            environment: Self.stateEnvironment)
        #expect(
            command
                == .command(
                    ServeCommand(
                        listen: ListenAddress(host: "0.0.0.0", port: 0), policiesDirectory: "/etc/mediactl",
                        stateDirectory: "/srv/m",
                        origins: [OriginOverride(route: "catalog", url: "https://cdn.example/catalog/")])))
    }

    @Test func everyOptionOfFetchInAnyOrder() throws {
        let command = try MediaCTLMain.parse(
            [
                "fetch", "--json", "--output", "out.jpg", "/receipts/r-7731.png?size=2", "--policies=P",
                "--state-dir", "S", "--header", "Authorization: Bearer t1",
            ],
            environment: [:])
        #expect(
            command
                == .command(
                    FetchCommand(
                        path: "/receipts/r-7731.png?size=2",
                        headers: [RequestHeader(name: "Authorization", value: "Bearer t1")],
                        outputFile: "out.jpg", json: true, policiesDirectory: "P", stateDirectory: "S")))
    }

    @Test func valuesMayStartWithASingleDash() throws {
        let command = try MediaCTLMain.parse(["fetch", "/a", "--output", "-"], environment: [:])
        #expect(command == .command(FetchCommand(path: "/a", outputFile: "-")))
    }

    @Test func pathAfterTerminator() throws {
        let command = try MediaCTLMain.parse(["fetch", "--json", "--", "/-odd"], environment: [:])
        #expect(command == .command(FetchCommand(path: "/-odd", json: true)))
    }

    @Test func otherCommandOptions() throws {
        let expectations: [([String], ParsedCommandLine)] = [
            (["demo", "--keep-serving"], .command(DemoCommand(keepServing: true))),
            (
                ["inspect", "--policies", "P", "https://o.example/a.jpg?v=1"],
                .command(InspectCommand(url: "https://o.example/a.jpg?v=1", policiesDirectory: "P"))
            ),
            (
                ["audit", "--json", "--policies", "P", "--state-dir", "S"],
                .command(AuditCommand(stateDirectories: ["S"], policiesDirectory: "P", json: true))
            ),
            (["audit", "verify", "--state-dir", "S"], .command(AuditVerifyCommand(stateDirectory: "S"))),
            (
                ["policy", "check", "--policies=Policies.test"],
                .command(PolicyCheckCommand(policiesDirectory: "Policies.test"))
            ),
        ]
        for (arguments, expected) in expectations {
            #expect(try MediaCTLMain.parse(arguments, environment: [:]) == expected, "\(arguments)")
        }
    }

    /// `--admin-listen`: the default, `off`, IPv6 and port 0; a bad value names `off` as allowed too.
    @Test func adminListenForms() async throws {
        #expect(ServeCommand().adminListen == ListenAddress(host: "127.0.0.1", port: 9091))
        let expectations: [(String, ListenAddress?)] = [
            ("off", nil), ("[::1]:0", ListenAddress(host: "::1", port: 0)), ("10.0.0.5:9100", ListenAddress(host: "10.0.0.5", port: 9100)),
        ]
        for (text, expected) in expectations {
            #expect(try MediaCTLMain.parse(["serve", "--admin-listen", text], environment: [:]) == .command(ServeCommand(adminListen: expected)))
        }
        let bad = await CLIRun.run(["serve", "--admin-listen", "nine"], using: CommandRecorder().environment)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("mediactl: invalid --admin-listen 'nine': expected HOST:PORT (or off)\n"))
        #expect(ServeCommand.isLoopback("127.0.0.1") && ServeCommand.isLoopback("127.8.0.1") && ServeCommand.isLoopback("::1"))
        #expect(!ServeCommand.isLoopback("0.0.0.0") && !ServeCommand.isLoopback("::") && !ServeCommand.isLoopback("10.0.0.5"))
    }

    @Test func listenAddressForms() throws {
        let expectations: [(String, ListenAddress, String)] = [
            ("127.0.0.1:8080", ListenAddress(host: "127.0.0.1", port: 8080), "127.0.0.1:8080"),
            ("0.0.0.0:0", ListenAddress(host: "0.0.0.0", port: 0), "0.0.0.0:0"),
            ("[::1]:65535", ListenAddress(host: "::1", port: 65535), "[::1]:65535"),
            ("[::]:80", ListenAddress(host: "::", port: 80), "[::]:80"),
            ("localhost:08080", ListenAddress(host: "localhost", port: 8080), "localhost:8080"),
            (
                "media-1.internal.example:443", ListenAddress(host: "media-1.internal.example", port: 443),
                "media-1.internal.example:443"
            ),
        ]
        for (text, expected, description) in expectations {
            let command = try MediaCTLMain.parse(["serve", "--listen", text], environment: [:])
            #expect(command == .command(ServeCommand(listen: expected)), "\(text)")
            #expect(expected.description == description)
        }
    }
}
