import Foundation
import MediaSigning
import Testing

/// The Python and JavaScript signers of docs/signed-urls.md make URLs `mediactl serve` accepts.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct SignedURLExampleSignerTests {
    static func signed(_ tool: String, _ script: String, subject: String, query: String?) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let exp = String(Int64(Date().timeIntervalSince1970) + 300)
        process.arguments = [tool, MediactlProcess.packageRoot.appendingPathComponent("docs/examples/signed-urls/" + script).path,
                             Base64URL.encode(SignedURLWorld.secret), SignedURLWorld.keyID, subject, exp, "/receipts/r-7731.png"]
            + (query.map { [$0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func urlsOfThePythonAndJavaScriptExamplesAreServed() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        try signed.world.start()
        let python = try #require(try Self.signed("python3", "sign.py", subject: "alice", query: "w=144"))
        let answer = try signed.world.get(python)
        #expect(answer.status == 200)
        #expect(answer.header("Cache-Status")?.contains("stored") == true)
        #expect(try signed.world.get(python.replacingOccurrences(of: "w=144", with: "w=72")).problemCode == "signature-invalid")
        // node is on this machine kind; when it is not, the Python check above stands alone.
        if let node = try Self.signed("node", "sign.mjs", subject: "bob", query: nil) {
            let plain = try signed.world.get(node)
            #expect(plain.status == 200)
            #expect(Array(plain.body.prefix(3)) == [0xFF, 0xD8, 0xFF])
        }
    }
}
