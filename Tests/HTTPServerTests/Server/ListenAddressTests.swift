import Testing
import HTTPServer

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080), ("0.0.0.0:0", "0.0.0.0", 0), ("[::1]:9000", "::1", 9000),
        ("8081", "127.0.0.1", 8081),
    ])
    func parses(_ text: String, _ host: String, _ port: Int) throws {
        let configuration = try HTTPServer.Configuration(maxConnections: 7).listening(on: text)
        #expect(configuration.host == host)
        #expect(configuration.port == port)
        #expect(configuration.maxConnections == 7)
    }

    @Test(arguments: ["", ":80", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000", "[::1]8080", "[::1]", "h:-1"])
    func refuses(_ text: String) {
        #expect(throws: HTTPServerError(
            code: .invalidAddress, message: "invalid listen address \(text): expected HOST:PORT")) {
            _ = try HTTPServer.Configuration().listening(on: text)
        }
    }
}
