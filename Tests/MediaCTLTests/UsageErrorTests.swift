import Testing

@testable import MediaCTL

/// One bad command line: its exact message and the command whose usage follows it.
struct UsageCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var message: String
    var command: [String]

    init(_ arguments: [String], _ message: String, _ command: [String]) {
        self.arguments = arguments
        self.message = message
        self.command = command
    }

    var testDescription: String { arguments.joined(separator: " ") }
}

@Suite struct UsageErrorTests {
    static let parsingCases: [UsageCase] = [
        UsageCase(["serv"], "unknown command 'serv'; did you mean serve?", []),
        UsageCase(["frobnicate"], "unknown command 'frobnicate'", []),
        UsageCase(["audit", "verfy"], "unknown command 'audit verfy'; did you mean audit verify?", ["audit"]),
        UsageCase(["policy", "chek"], "unknown command 'policy chek'; did you mean policy check?", ["policy"]),
        UsageCase(["policy"], "missing subcommand for 'policy' (expected: check)", ["policy"]),
        UsageCase(["--bogus"], "unknown option '--bogus'", []),
        UsageCase(["--verison"], "unknown option '--verison'; did you mean --version?", []),
        UsageCase(["--version", "extra"], "unexpected argument 'extra'", []),
        UsageCase(["serve", "--state-dri", "x"], "unknown option '--state-dri'; did you mean --state-dir?", ["serve"]),
        UsageCase(["serve", "--statedir=x"], "unknown option '--statedir'; did you mean --state-dir?", ["serve"]),
        UsageCase(["audit", "--jsn"], "unknown option '--jsn'; did you mean --json?", ["audit"]),
        UsageCase(["audit", "verify", "--json"], "unknown option '--json'", ["audit", "verify"]),
        UsageCase(["serve", "-x"], "unknown option '-x'", ["serve"]),
        UsageCase(["serve", "--listen"], "missing value for option '--listen' (expected HOST:PORT)", ["serve"]),
        UsageCase(
            ["serve", "--state-dir", "--listen", "127.0.0.1:1"],
            "missing value for option '--state-dir' (expected DIR)", ["serve"]),
        UsageCase(["serve", "--policies="], "empty value for option '--policies' (expected DIR)", ["serve"]),
        UsageCase(["purge", "--route", ""], "empty value for option '--route' (expected NAME)", ["purge"]),
        UsageCase(["audit", "--json=yes"], "option '--json' does not take a value", ["audit"]),
        UsageCase(
            ["serve", "--state-dir", "a", "--state-dir=b"], "option '--state-dir' given more than once", ["serve"]),
        UsageCase(
            ["demo", "--keep-serving", "--keep-serving"], "option '--keep-serving' given more than once", ["demo"]),
        UsageCase(["fetch"], "missing argument PATH", ["fetch"]),
        UsageCase(["fetch", "--json"], "missing argument PATH", ["fetch"]),
        UsageCase(["inspect"], "missing argument URL", ["inspect"]),
        UsageCase(["serve", "extra"], "unexpected argument 'extra'", ["serve"]),
        UsageCase(["fetch", "/a.jpg", "/b.jpg"], "unexpected argument '/b.jpg'", ["fetch"]),
        UsageCase(["audit", "--json", "verify"], "unexpected argument 'verify'", ["audit"]),
        UsageCase(["demo", "--", "--keep-serving"], "unexpected argument '--keep-serving'", ["demo"]),
        UsageCase(["help", "bogus"], "unknown command 'bogus'", []),
        UsageCase(["help", "serve", "x"], "unknown command 'serve x'", ["serve"]),
        UsageCase(["help", "audit", "verify", "x"], "unexpected argument 'x'", ["help"]),
        UsageCase(["help", "--all"], "unknown option '--all'", ["help"]),
    ]

    static let valueCases: [UsageCase] = [
        UsageCase(["serve", "--origin", "catalog"], "invalid --origin 'catalog': expected ROUTE=URL", ["serve"]),
        UsageCase(["serve", "--origin=catalog"], "invalid --origin 'catalog': expected ROUTE=URL", ["serve"]),
        UsageCase(
            ["serve", "--origin", "=http://o/"], "invalid --origin '=http://o/': route name is empty", ["serve"]),
        UsageCase(
            ["serve", "--origin", "catalog=ftp://o/"],
            "invalid --origin 'catalog=ftp://o/': URL must be http:// or https:// with a host", ["serve"]),
        UsageCase(
            ["serve", "--origin", "catalog=http://"],
            "invalid --origin 'catalog=http://': URL must be http:// or https:// with a host", ["serve"]),
        UsageCase(
            ["serve", "--origin", "catalog=/catalog/"],
            "invalid --origin 'catalog=/catalog/': URL must be http:// or https:// with a host", ["serve"]),
        UsageCase(
            ["serve", "--origin", "catalog=http://a/", "--origin", "catalog=http://b/"],
            "route 'catalog' given more than one --origin", ["serve"]),
        UsageCase(
            ["serve", "--event-loops", "0"], "invalid --event-loops '0': expected a whole number from 1 to 256", ["serve"]),
        UsageCase(
            ["serve", "--event-loops", "257"], "invalid --event-loops '257': expected a whole number from 1 to 256", ["serve"]),
        UsageCase(
            ["serve", "--event-loops", "+2"], "invalid --event-loops '+2': expected a whole number from 1 to 256", ["serve"]),
        UsageCase(
            ["serve", "--event-loops", "two"], "invalid --event-loops 'two': expected a whole number from 1 to 256", ["serve"]),
        UsageCase(["serve", "--log-format", "xml"], "invalid --log-format 'xml': expected text or json", ["serve"]),
        UsageCase(
            ["serve", "--log-level", "verbose"], "invalid --log-level 'verbose': expected debug, info, warn or error", ["serve"]),
        UsageCase(["serve", "--log-level", "INFO"], "invalid --log-level 'INFO': expected debug, info, warn or error", ["serve"]),
        UsageCase(["serve", "--listen", "localhost"], "invalid --listen 'localhost': expected HOST:PORT", ["serve"]),
        UsageCase(["serve", "--listen", ":8080"], "invalid --listen ':8080': host is empty", ["serve"]),
        UsageCase(["serve", "--listen", "[]:8080"], "invalid --listen '[]:8080': host is empty", ["serve"]),
        UsageCase(
            ["serve", "--listen", "127.0.0.1:"],
            "invalid --listen '127.0.0.1:': port must be a number from 0 to 65535", ["serve"]),
        UsageCase(
            ["serve", "--listen", "127.0.0.1:65536"],
            "invalid --listen '127.0.0.1:65536': port must be a number from 0 to 65535", ["serve"]),
        UsageCase(
            ["serve", "--listen", "127.0.0.1:+80"],
            "invalid --listen '127.0.0.1:+80': port must be a number from 0 to 65535", ["serve"]),
        UsageCase(
            ["serve", "--listen", "127.0.0.1:http"],
            "invalid --listen '127.0.0.1:http': port must be a number from 0 to 65535", ["serve"]),
        UsageCase(
            ["serve", "--listen", "256.0.0.1:80"],
            "invalid --listen '256.0.0.1:80': '256.0.0.1' is not a valid IPv4 address", ["serve"]),
        UsageCase(
            ["serve", "--listen", "1.2.3:80"], "invalid --listen '1.2.3:80': '1.2.3' is not a valid IPv4 address",
            ["serve"]),
        UsageCase(
            ["serve", "--listen", "[::zz]:80"], "invalid --listen '[::zz]:80': '::zz' is not a valid IPv6 address",
            ["serve"]),
        UsageCase(
            ["serve", "--listen", "::1:80"],
            "invalid --listen '::1:80': an IPv6 host must be in brackets, such as [::1]:8080", ["serve"]),
        UsageCase(["serve", "--listen", "[::1:80"], "invalid --listen '[::1:80': expected HOST:PORT", ["serve"]),
        UsageCase(
            ["serve", "--listen", "bad_host:80"], "invalid --listen 'bad_host:80': 'bad_host' is not a valid host name",
            ["serve"]),
        UsageCase(
            ["serve", "--listen", "-a.example:80"],
            "invalid --listen '-a.example:80': '-a.example' is not a valid host name", ["serve"]),
        UsageCase(
            ["fetch", "/a.jpg", "--header", "NoColon"], "invalid --header 'NoColon': expected 'Name: value'", ["fetch"]),
        UsageCase(["fetch", "/a.jpg", "--header", ": v"], "invalid --header ': v': expected 'Name: value'", ["fetch"]),
        UsageCase(
            ["fetch", "/a.jpg", "--header", "Fo o: 1"], "invalid --header 'Fo o: 1': 'Fo o' is not a valid field name",
            ["fetch"]),
        UsageCase(
            ["fetch", "/a.jpg", "--header", "X-A: a\u{1}b"],
            "invalid --header 'X-A: a\u{1}b': value contains a control character", ["fetch"]),
        UsageCase(["fetch", "catalog/a.jpg"], "invalid PATH 'catalog/a.jpg': must start with '/'", ["fetch"]),
        UsageCase(["fetch", "/a b.jpg"], "invalid PATH '/a b.jpg': contains a space or control character", ["fetch"]),
        UsageCase(
            ["inspect", "example.com/a.jpg"],
            "invalid URL 'example.com/a.jpg': expected http:// or https:// with a host", ["inspect"]),
        UsageCase(
            ["inspect", "ftp://example.com/a.jpg"],
            "invalid URL 'ftp://example.com/a.jpg': expected http:// or https:// with a host", ["inspect"]),
        UsageCase(["purge"], "purge requires one of --route NAME, --credential-file FILE, --subject SUB, --url PATH, --tag T or --all", ["purge"]),
        UsageCase(
            ["purge", "--state-dir", "s"], "purge requires one of --route NAME, --credential-file FILE, --subject SUB, --url PATH, --tag T or --all",
            ["purge"]),
        UsageCase(
            ["purge", "--all", "--route", "catalog"], "options --route and --all cannot be used together", ["purge"]),
        UsageCase(
            ["purge", "--credential-file", "t", "--route", "catalog"],
            "options --route and --credential-file cannot be used together", ["purge"]),
        UsageCase(
            ["purge", "--all", "--credential-file", "t"], "options --credential-file and --all cannot be used together",
            ["purge"]),
        UsageCase(
            ["purge", "--all", "--credential-file", "t", "--route", "catalog"],
            "options --route, --credential-file and --all cannot be used together", ["purge"]),
    ]

    @Test(arguments: parsingCases + valueCases)
    func printsMessageAndUsageAndExits64(_ testCase: UsageCase) async {
        let recorder = CommandRecorder()
        let result = await CLIRun.run(testCase.arguments, using: recorder.environment)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == CLIRun.usageError(testCase.message, command: testCase.command))
        #expect(recorder.calls.isEmpty)
    }

    @Test(arguments: parsingCases + valueCases)
    func parseThrowsTheSameError(_ testCase: UsageCase) {
        #expect(throws: UsageError.self) { try MediaCTLMain.parse(testCase.arguments, environment: [:]) }
        do {
            _ = try MediaCTLMain.parse(testCase.arguments, environment: [:])
        } catch {
            #expect(error.message == testCase.message)
            #expect(error.command == testCase.command)
        }
    }

    @Test func errorCodesAreStable() throws {
        let expectations: [([String], UsageError.Code)] = [
            (["serv"], .unknownCommand), (["policy"], .missingSubcommand), (["serve", "-x"], .unknownOption),
            (["serve", "--listen"], .missingValue), (["serve", "--policies="], .emptyValue),
            (["audit", "--json=1"], .unexpectedValue), (["audit", "--json", "--json"], .duplicateOption),
            (["fetch"], .missingArgument), (["serve", "x"], .unexpectedArgument),
            (["serve", "--listen", "x"], .invalidValue), (["purge"], .conflictingOptions),
        ]
        for (arguments, code) in expectations {
            do {
                _ = try MediaCTLMain.parse(arguments, environment: [:])
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(error.code == code, "\(arguments)")
                #expect(error.description == "\(code.rawValue): \(error.message)")
            }
        }
        #expect(UsageError.Code.unknownOption.description == "unknown-option")
    }

    @Test func exactStderrOfAnOptionTypo() async {
        let result = await CLIRun.run(["serve", "--state-dri", "/tmp/x"])
        #expect(
            result.stderr == """
                mediactl: unknown option '--state-dri'; did you mean --state-dir?
                Usage: mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]... [--admin-token-file FILE] [--log-format text|json] [--log-level LEVEL] [--ready-min-free-bytes N]
                Run 'mediactl serve --help' for more information.

                """)
    }

    @Test func exactStderrShowsEveryUsageLineOfAudit() async {
        let result = await CLIRun.run(["audit", "--jsn"])
        #expect(
            result.stderr == """
                mediactl: unknown option '--jsn'; did you mean --json?
                Usage: mediactl audit [--state-dir DIR]... [--policies DIR] [--json] [--junit FILE] [--html FILE]
                       mediactl audit verify [--state-dir DIR]
                       mediactl audit prune --keep-segments N [--state-dir DIR] [--policies DIR]
                       mediactl audit public-key [--state-dir DIR]
                       mediactl audit checkpoint [--size N] [--state-dir DIR]
                       mediactl audit prove --index N [--size N] [--state-dir DIR]
                       mediactl audit consistency OLD NEW [--state-dir DIR]
                       mediactl audit verify-receipt RECEIPT [--state-dir DIR]
                       mediactl audit export [--since INDEX] [--format jsonl|syslog] [--state-dir DIR]
                Run 'mediactl audit --help' for more information.

                """)
    }
}
