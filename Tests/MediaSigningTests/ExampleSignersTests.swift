import Foundation
import Testing

/// The Python and JavaScript examples of docs/signed-urls.md sign the test vectors exactly.
@Suite struct ExampleSignersTests {
    static func which(_ tool: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sh", "-c", "command -v \(tool)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    func run(_ tool: String, _ script: String, _ vector: SigningVector) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = [tool, SigningVector.examples.appendingPathComponent(script).path, vector.secret, vector.kid,
                         vector.sub, String(vector.exp), vector.path]
        if !vector.query.isEmpty { arguments.append(vector.query) }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: ExampleSignersTests.which("python3"), "python3 is on every machine of this kind"),
          arguments: SigningVector.all)
    func python(_ vector: SigningVector) throws {
        #expect(try run("python3", "sign.py", vector) == vector.url)
    }

    @Test(.enabled(if: ExampleSignersTests.which("node"), "node is not installed"), arguments: SigningVector.all)
    func javaScript(_ vector: SigningVector) throws {
        #expect(try run("node", "sign.mjs", vector) == vector.url)
    }
}
