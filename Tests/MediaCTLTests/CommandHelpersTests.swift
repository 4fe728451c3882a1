import MediaTestSupport
import Foundation
import Testing

@testable import MediaCTL

@Suite struct CommandHelpersTests {
    static func context() -> (CommandContext, CapturedOutput, CapturedOutput) {
        let out = CapturedOutput()
        let err = CapturedOutput()
        return (CommandContext(stdout: out, stderr: err, environment: [:]), out, err)
    }

    @Test func failPrintsTheMessageAndReturnsItsStatus() {
        let (context, out, err) = Self.context()
        let status = context.fail(CommandError(.invalidFile, "policy 'a.json' is bad", exitCode: .unusableInput))
        #expect(status == .unusableInput)
        #expect(out.text == "")
        #expect(err.text == "mediactl: policy 'a.json' is bad\n")
    }

    @Test func jsonIsOneSortedDocument() throws {
        struct Report: Encodable {
            var tier = "private"
            var url = "http://o/a.jpg"
            var counts = ["store": 2, "skip": 1]
            var partition: String? = nil
        }
        let (context, out, _) = Self.context()
        try context.writeJSON(Report())
        #expect(
            out.text == """
                {
                  "counts" : {
                    "skip" : 1,
                    "store" : 2
                  },
                  "tier" : "private",
                  "url" : "http://o/a.jpg"
                }

                """)
    }

    @Test func jsonEncodingFailureWritesNothing() {
        let (context, out, _) = Self.context()
        let error = #expect(throws: CommandError.self) { try context.writeJSON(["ratio": Double.nan]) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.exitCode == .failure)
        #expect(error?.message.hasPrefix("cannot encode the JSON output: ") == true)
        #expect(out.bytes.isEmpty)
    }

    @Test func bodyGoesToAFileWithMode0600() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, out, _) = Self.context()
        let path = try directory.file("body.jpg")
        let body: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 0x0A] + [UInt8](repeating: 7, count: 70_000)
        try BodyOutput.write(body, toPath: path, context: context)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == body)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try BodyOutput.write([1, 2], toPath: path, context: context)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == [1, 2])
        #expect(out.bytes.isEmpty)
    }

    @Test func dashMeansStdout() throws {
        let (context, out, _) = Self.context()
        try BodyOutput.write([0xFF, 0xD8], toPath: "-", context: context)
        #expect(out.bytes == [0xFF, 0xD8])
    }

    @Test func unwritableBodyPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (context, _, _) = Self.context()
        let path = directory.path + "/missing/body.jpg"
        let error = #expect(throws: CommandError.self) { try BodyOutput.write([1], toPath: path, context: context) }
        #expect(error?.message == "cannot write '\(path)': No such file or directory (errno 2)")
        #expect(error?.code == .unwritableFile)
        #expect(error?.exitCode == .unusableInput)
        let folder = #expect(throws: CommandError.self) {
            try BodyOutput.write([1], toPath: directory.path, context: context)
        }
        #expect(folder?.message == "cannot write '\(directory.path)': Is a directory (errno 21)")
    }
}
