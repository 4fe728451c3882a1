import Testing

@testable import MediaCTL

@Suite struct RepeatableOptionsTests {
    @Test func originsKeepCommandLineOrderInBothForms() throws {
        let command = try MediaCTLMain.parse(
            [
                "serve", "--origin", "catalog=http://127.0.0.1:9000/catalog/", "--state-dir", "S",
                "--origin=avatars=https://avatars.example/a/?x=1", "--origin", "receipts=HTTP://R.example",
            ],
            environment: [:])
        #expect(
            command
                == .command(
                    ServeCommand(
                        stateDirectory: "S",
                        origins: [
                            OriginOverride(route: "catalog", url: "http://127.0.0.1:9000/catalog/"),
                            OriginOverride(route: "avatars", url: "https://avatars.example/a/?x=1"),
                            // A base without a trailing slash gets one.
                            OriginOverride(route: "receipts", url: "HTTP://R.example/"),
                        ])))
    }

    @Test func eventLoopsParsesInBothForms() throws {
        #expect(try MediaCTLMain.parse(["serve", "--event-loops", "1"], environment: [:]) == .command(ServeCommand(eventLoops: 1)))
        #expect(try MediaCTLMain.parse(["serve", "--event-loops=256"], environment: [:]) == .command(ServeCommand(eventLoops: 256)))
        #expect(try MediaCTLMain.parse(["serve"], environment: [:]) == .command(ServeCommand(eventLoops: nil)))
    }

    @Test func originSplitsAtTheFirstEquals() throws {
        let command = try MediaCTLMain.parse(
            ["serve", "--origin", "one-time=http://o.example/?a=b=c"], environment: [:])
        #expect(
            command
                == .command(ServeCommand(origins: [OriginOverride(route: "one-time", url: "http://o.example/?a=b=c")])))
        #expect(OriginOverride(route: "one-time", url: "http://o.example/").description == "one-time=http://o.example/")
    }

    @Test func anOriginBaseWithoutATrailingSlashGetsOne() throws {
        func parsed(_ text: String) throws -> [OriginOverride] {
            guard case .command(let command) = try MediaCTLMain.parse(["serve", "--origin", text], environment: [:]),
                  let options = command as? ServeCommand else { return [] }
            return options.origins
        }
        #expect(try parsed("catalog=http://127.0.0.1:8081") == [OriginOverride(route: "catalog", url: "http://127.0.0.1:8081/")])
        #expect(try parsed("catalog=http://h.example/img") == [OriginOverride(route: "catalog", url: "http://h.example/img/")])
        #expect(try parsed("catalog=http://h.example/img/") == [OriginOverride(route: "catalog", url: "http://h.example/img/")])
        // A query or fragment is left as given: the router refuses it, naming the route.
        #expect(try parsed("catalog=http://h.example/img?x=1") == [OriginOverride(route: "catalog", url: "http://h.example/img?x=1")])
    }

    @Test func headersKeepOrderDuplicatesAndTrimming() throws {
        let command = try MediaCTLMain.parse(
            [
                "fetch", "/avatars/u1001.jpg", "--header", "Authorization: Bearer t1",
                "--header=Accept:image/webp", "--header", "X-Empty:", "--header", "accept: \t image/avif \t",
                "--header", "X-Time: 12:30:00",
            ],
            environment: [:])
        #expect(
            command
                == .command(
                    FetchCommand(
                        path: "/avatars/u1001.jpg",
                        headers: [
                            RequestHeader(name: "Authorization", value: "Bearer t1"),
                            RequestHeader(name: "Accept", value: "image/webp"),
                            RequestHeader(name: "X-Empty", value: ""),
                            RequestHeader(name: "accept", value: "image/avif"),
                            RequestHeader(name: "X-Time", value: "12:30:00"),
                        ])))
        #expect(RequestHeader(name: "Accept", value: "image/webp").description == "Accept: image/webp")
    }

    @Test func headerValueMayHoldInnerTabsButNoOtherControls() throws {
        let command = try MediaCTLMain.parse(["fetch", "/a", "--header", "X-A: a\tb"], environment: [:])
        #expect(command == .command(FetchCommand(path: "/a", headers: [RequestHeader(name: "X-A", value: "a\tb")])))
        #expect(throws: UsageError.self) {
            try MediaCTLMain.parse(["fetch", "/a", "--header", "X-A: a\r\nX-B: b"], environment: [:])
        }
        #expect(throws: UsageError.self) {
            try MediaCTLMain.parse(["fetch", "/a", "--header", "X-A: a\u{7F}"], environment: [:])
        }
    }

    @Test func headerNamesAcceptEveryTokenCharacter() throws {
        let name = "!#$%&'*+-.^_`|~09azAZ"
        let command = try MediaCTLMain.parse(["fetch", "/a", "--header", name + ": v"], environment: [:])
        #expect(command == .command(FetchCommand(path: "/a", headers: [RequestHeader(name: name, value: "v")])))
    }

    @Test func nonRepeatableOptionsRejectASecondValue() async {
        for option in ["--listen", "--policies", "--state-dir"] {
            let result = await CLIRun.run(["serve", option, "127.0.0.1:1", option, "127.0.0.1:2"])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("mediactl: option '\(option)' given more than once\n"))
        }
        let output = await CLIRun.run(["fetch", "/a", "--output", "a", "--output", "b"])
        #expect(output.stderr.hasPrefix("mediactl: option '--output' given more than once\n"))
    }
}
