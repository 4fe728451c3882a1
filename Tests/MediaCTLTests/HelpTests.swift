import Testing

@testable import MediaCTL

@Suite struct HelpTests {
    /// Every command line that asks for help, with the exact first line of what it prints.
    static let firstLines: [([String], String)] = [
        (["--help"], "Usage: mediactl <command> [options]"),
        (["-h"], "Usage: mediactl <command> [options]"),
        (
            ["serve", "--help"],
            "Usage: mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]... [--admin-token-file FILE] [--log-format text|json] [--log-level LEVEL] [--ready-min-free-bytes N]"
        ),
        (
            ["serve", "-h"],
            "Usage: mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]... [--admin-token-file FILE] [--log-format text|json] [--log-level LEVEL] [--ready-min-free-bytes N]"
        ),
        (["demo", "--help"], "Usage: mediactl demo [--keep-serving]"),
        (
            ["fetch", "--help"],
            "Usage: mediactl fetch PATH [--header 'Name: value']... [--credential-file FILE] [--output FILE] [--json] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]..."
        ),
        (["inspect", "--help"], "Usage: mediactl inspect URL [--credential-file FILE] [--policies DIR] [--origin ROUTE=URL]... [--state-dir DIR]"),
        (["audit", "--help"], "Usage: mediactl audit [--state-dir DIR]... [--policies DIR] [--json] [--junit FILE] [--html FILE]"),
        (["audit", "verify", "--help"], "Usage: mediactl audit verify [--state-dir DIR]"),
        (["audit", "verify", "-h"], "Usage: mediactl audit verify [--state-dir DIR]"),
        (["policy", "--help"], "Usage: mediactl policy check [--policies DIR]"),
        (["policy", "check", "--help"], "Usage: mediactl policy check [--policies DIR]"),
        (
            ["purge", "--help"],
            "Usage: mediactl purge (--route NAME | --credential-file FILE | --subject SUB | --url PATH | --tag T [--soft] | --all) [--state-dir DIR | --replicas FILE [--admin-token-file FILE]] [--receipt FILE]"
        ),
        (["help", "--help"], "Usage: mediactl help [COMMAND [SUBCOMMAND]]"),
        (
            ["help", "serve"],
            "Usage: mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]... [--admin-token-file FILE] [--log-format text|json] [--log-level LEVEL] [--ready-min-free-bytes N]"
        ),
        (["help", "audit", "verify"], "Usage: mediactl audit verify [--state-dir DIR]"),
        (["help", "policy"], "Usage: mediactl policy check [--policies DIR]"),
        // --help wins over other mistakes on the same command line, and over missing arguments.
        (
            ["serve", "--bogus", "--help"],
            "Usage: mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]... [--admin-token-file FILE] [--log-format text|json] [--log-level LEVEL] [--ready-min-free-bytes N]"
        ),
        (
            ["fetch", "-h"],
            "Usage: mediactl fetch PATH [--header 'Name: value']... [--credential-file FILE] [--output FILE] [--json] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]..."
        ),
        (
            ["purge", "--all", "--route", "x", "--help"],
            "Usage: mediactl purge (--route NAME | --credential-file FILE | --subject SUB | --url PATH | --tag T [--soft] | --all) [--state-dir DIR | --replicas FILE [--admin-token-file FILE]] [--receipt FILE]"
        ),
    ]

    @Test(arguments: firstLines)
    func helpPrintsUsageFirstAndExits0(_ arguments: [String], _ firstLine: String) async {
        let recorder = CommandRecorder()
        let result = await CLIRun.run(arguments, using: recorder.environment)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).first == Substring(firstLine))
        #expect(result.stdout.hasSuffix("\n"))
        #expect(recorder.calls.isEmpty)
    }

    @Test func overviewWithoutArgumentsOrWithHelp() async {
        let bare = await CLIRun.run([])
        let help = await CLIRun.run(["help"])
        let flag = await CLIRun.run(["--help"])
        #expect(bare.status == 0)
        #expect(bare.stdout == CommandTree.root.helpText)
        #expect(help == bare)
        #expect(flag == bare)
    }

    @Test func overviewText() async {
        let result = await CLIRun.run([])
        #expect(
            result.stdout == """
                Usage: mediactl <command> [options]

                mediactl 0.1.0: a privacy-tiered, authenticated media cache.

                Commands:
                  serve                  Run the media service over HTTP until interrupted.
                  demo                   Run an embedded origin with the bundled sample images and the default policies, and show every tier.
                  fetch                  Send one request through the pipeline and show the response and the storage decision.
                  inspect                Show an origin URL's caching headers, parsed freshness, matching route and tier, and what it would store.
                  audit                  Report what was persisted, per tier, and any storage that policy forbids.
                  audit verify           Check the audit log's hash chain.
                  audit prune            Remove the oldest rotated audit segments, keeping a verifiable checkpoint.
                  audit public-key       Print the verifier key of the audit log's checkpoints.
                  audit checkpoint       Print a signed checkpoint of the audit log's Merkle tree.
                  audit prove            Print the inclusion proof of one audit record, with a signed checkpoint.
                  audit consistency      Prove that a later audit checkpoint extends an earlier one.
                  audit verify-receipt   Check an erasure receipt against the state directory it came from.
                  audit export           Stream the audit log's records with their leaf indices, as JSON Lines or RFC 5424 syslog.
                  policy check           Validate the policy files.
                  purge                  Remove stored objects of one route, of one credential's or subject's partition, of one URL, of one cache tag, or all of them.
                  reload                 Re-read the policies of the running service without a restart.
                  warm                   Fill the running service's cache from a list of paths.
                  sign                   Print a signed capability URL for a tier with signedURLs (docs/signed-urls.md).
                  help                   Show the overview, or the help of a command.

                Options:
                  --version    Print the version and exit.
                  -h, --help   Show this help and exit.

                Defaults: --policies ./Policies, --state-dir ./.mediactl (or $MEDIACTL_STATE_DIR).

                Exit status: 0 ok, 1 violations or failed check, 2 unusable input (unreadable file, bad policy), 64 usage error.

                Run 'mediactl <command> --help' for the options of a command.

                """)
    }

    @Test func serveHelpText() async {
        let result = await CLIRun.run(["serve", "--help"])
        #expect(
            result.stdout == """
                Usage: mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]... [--admin-token-file FILE] [--log-format text|json] [--log-level LEVEL] [--ready-min-free-bytes N]

                Run the media service over HTTP until interrupted.

                Options:
                  --listen HOST:PORT             Address to listen on; IPv6 as [::1]:PORT, port 0 picks a free one. Default: 127.0.0.1:8080.
                  --admin-listen HOST:PORT|off   Address of the admin listener (/_mediactl/health, /_mediactl/ready, /_mediactl/metrics, purge, reload); off: none. Default: 127.0.0.1:9091.
                  --policies DIR                 Policy directory (*.json). Default: ./Policies.
                  --state-dir DIR                State directory. Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl.
                  --origin ROUTE=URL             Replace the origin base URL (http or https) of route ROUTE. Repeatable, once per route.
                  --event-loops N                Event-loop threads serving connections, 1 to 256. Default: one per online CPU.
                  --access-log PATH|-            Append one JSON line per request to PATH (- for standard output); SIGUSR1 reopens it. Default: none.
                  --front ADDR                   Numeric address of a front proxy, exempt from the cap of 256 connections per client address. Repeatable.
                  --admin-token-file FILE        Accept the admin token in FILE (mode 0600, 32 to 256 b64token characters) instead of a new one at every start.
                  --log-format text|json         How the service log on standard error is written: text lines, or JSON Lines. Default: text.
                  --log-level LEVEL              The least severe service log lines written: debug (every request), info, warn or error. Default: info.
                  --ready-min-free-bytes N       Readiness fails while the state directory's file system has fewer than N bytes free; 0: never. Default: 268435456 (256 MiB).
                  -h, --help                     Show this help and exit.

                SIGHUP re-reads the policies without a restart (as 'mediactl reload' does); an invalid set keeps the policies in force.

                Exit status: 0 stopped by SIGINT or SIGTERM, 1 an internal failure (admin token, signal handling), 2 unusable input (unreadable file, bad policy, a state directory that cannot be created or used, a port in use), 64 usage error.

                """)
    }

    @Test func fetchHelpListsItsArgument() async {
        let result = await CLIRun.run(["fetch", "--help"])
        #expect(
            result.stdout.contains(
                """
                Arguments:
                  PATH   Request target starting with '/', such as /catalog/coffee.jpg.

                """))
    }

    @Test func auditHelpListsItsSubcommand() async {
        let result = await CLIRun.run(["audit", "--help"])
        #expect(
            result.stdout.contains(
                """
                Subcommands:
                  audit verify           Check the audit log's hash chain.

                """))
    }

    /// Walks the whole command tree: each command's help is its own, and its usage names every
    /// option it declares.
    @Test func everyCommandHasHelpNamingEveryOption() async {
        var pending = [CommandTree.root]
        var visited = 0
        while let spec = pending.popLast() {
            visited += 1
            pending.append(contentsOf: spec.subcommands)
            let result = await CLIRun.run(spec.path + ["--help"])
            #expect(result.status == 0)
            #expect(result.stdout == spec.helpText)
            for option in spec.options where !spec.path.isEmpty {
                #expect(spec.usage.joined().contains(option.flag), "\(spec.displayName) \(option.flag)")
                #expect(result.stdout.contains("  " + option.synopsis + " "), "\(spec.displayName) \(option.flag)")
            }
            for positional in spec.positionals {
                #expect(spec.usage[0].contains(positional.name), "\(spec.displayName) \(positional.name)")
            }
        }
        #expect(visited == 21)
    }

    @Test func versionPrintsNameAndVersion() async {
        let result = await CLIRun.run(["--version"])
        #expect(result == CLIRun(status: 0, stdout: "mediactl 0.1.0\n", stderr: ""))
        #expect(MediaCTLMain.version == "0.1.0")
    }

    @Test func versionIsOnlyATopLevelOption() async {
        let result = await CLIRun.run(["serve", "--version"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("mediactl: unknown option '--version'\n"))
    }

    @Test func helpAfterTerminatorIsAnArgument() async {
        let result = await CLIRun.run(["fetch", "--", "--help"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("mediactl: invalid PATH '--help': must start with '/'\n"))
    }

    @Test func eachCommandSaysWhatItsExitStatusesMean() async {
        let expected: [([String], String)] = [
            (["fetch"], "Exit status: 0 a 2xx or 304 answer, 1 any other answer, 2 unusable input (unreadable file, bad policy, missing state directory), 64 usage error."),
            (["audit"], "Exit status: 0 clean, 1 violations (a broken chain included) in any replica, 2 unusable input (unreadable file, bad policy, missing state directory), 64 usage error."),
            (["audit", "verify"], "Exit status: 0 chain intact, 1 chain broken, 2 unusable input (unreadable file, bad policy, missing state directory), 64 usage error."),
            (["policy", "check"], "Exit status: 0 valid, 2 unusable input (unreadable file, bad policy, missing state directory), 64 usage error."),
            (["purge"], "Exit status: 0 purged, 1 the service failed the purge (5xx), or a replica of --replicas was not purged, 2 unusable input (unreadable file, bad policy, missing state directory), 64 usage error."),
        ]
        for (command, line) in expected {
            let result = await CLIRun.run(command + ["--help"])
            #expect(result.status == 0)
            #expect(result.stdout.hasSuffix("\n" + line + "\n"), "\(command)")
        }
        let purge = await CLIRun.run(["purge", "--help"])
        #expect(purge.stdout.contains(
            "\nAsks the running 'mediactl serve' of the state directory (its serve.json); with none running, exits 2.\n"))
    }
}
