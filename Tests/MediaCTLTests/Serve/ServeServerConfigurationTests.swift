import HTTPServer
import Testing

@testable import MediaCTL

/// How `serve`'s options reach the HTTP server's configuration.
@Suite struct ServeServerConfigurationTests {
    @Test func eventLoopsOptionSetsTheLoopCount() {
        let options = ServeOptions(listen: ListenAddress(host: "::1", port: 9090), eventLoops: 3)
        let server = ServeCommand(options: options).serverConfiguration(host: "::1")
        #expect(server.eventLoopCount == 3)
        #expect(server.host == "::1")
        #expect(server.port == 9090)
    }

    @Test func withoutTheOptionOneLoopPerOnlineCPU() {
        let server = ServeCommand(options: ServeOptions()).serverConfiguration(host: "127.0.0.1")
        #expect(server.eventLoopCount == HTTPServer.Configuration.defaultEventLoopCount)
        #expect(server.port == 8080)
    }

    @Test func theOptionOverridesTheConfiguredCount() {
        var configuration = ServeCommand.Configuration()
        configuration.server.eventLoopCount = 8
        let configured = ServeCommand(options: ServeOptions(), configuration: configuration)
        #expect(configured.serverConfiguration(host: "127.0.0.1").eventLoopCount == 8)
        let overridden = ServeCommand(options: ServeOptions(eventLoops: 1), configuration: configuration)
        #expect(overridden.serverConfiguration(host: "127.0.0.1").eventLoopCount == 1)
    }
}
