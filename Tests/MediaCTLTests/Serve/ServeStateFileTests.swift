import MediaTestSupport
import Foundation
import Testing

@testable import MediaCTL

/// `serve.json`: the running service's pid, addresses and admin token, for `purge` and `reload`.
@Suite struct ServeStateFileTests {
    @Test func serveStateFileRoundTripsWithMode0600AndRedactsTheToken() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let token = try ServeStateFile.makeAdminToken()
        #expect(token.count == 64)
        #expect(token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try ServeStateFile.read(stateDirectory: folder.path) == nil)
        let file = ServeStateFile(pid: 42, listen: "127.0.0.1:8080", adminToken: token)
        try file.write(stateDirectory: folder.path)
        let path = folder.path + "/serve.json"
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "{\"adminToken\":\"\(token)\",\"listen\":\"127.0.0.1:8080\",\"pid\":42}\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try ServeStateFile.read(stateDirectory: folder.path) == file)
        #expect(file.description == "ServeStateFile(pid: 42, listen: 127.0.0.1:8080, admin: none, adminToken: <redacted>)")
        ServeStateFile.remove(stateDirectory: folder.path)
        #expect(try ServeStateFile.read(stateDirectory: folder.path) == nil)
    }
}
