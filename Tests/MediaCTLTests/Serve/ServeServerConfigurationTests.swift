import HTTPServer
import Testing

@testable import MediaCTL

/// How `serve`'s options reach the HTTP server's configuration.
@Suite struct ServeServerConfigurationTests {
    @Test func eventLoopsOptionSetsTheLoopCount() {
        let options = ServeCommand(listen: ListenAddress(host: "::1", port: 9090), eventLoops: 3)
        let server = options.serverConfiguration(host: "::1")
        #expect(server.eventLoopCount == 3)
        #expect(server.host == "::1")
        #expect(server.port == 9090)
    }

    @Test func withoutTheOptionOneLoopPerOnlineCPU() {
        let server = ServeCommand().serverConfiguration(host: "127.0.0.1")
        #expect(server.eventLoopCount == HTTPServer.Configuration.defaultEventLoopCount)
        #expect(server.port == 8080)
    }

    @Test func theOptionOverridesTheConfiguredCount() {
        var configuration = ServeCommand.Configuration()
        configuration.server.eventLoopCount = 8
        let configured = ServeCommand()
        #expect(configured.serverConfiguration(host: "127.0.0.1", configuration: configuration).eventLoopCount == 8)
        let overridden = ServeCommand(eventLoops: 1)
        #expect(overridden.serverConfiguration(host: "127.0.0.1", configuration: configuration).eventLoopCount == 1)
    }
}
