import Foundation
import MediaTestSupport
@testable import MediaTransform
import Testing

/// `?info=1`'s ThumbHash equals PyPI `thumbhash`'s for the same decoded pixels, for every image of the corpus that
/// decodes (the catalog, avatars, receipts, uploads and large photos; the hostile files are refused before any pixel).
/// Runs where the test venv exists: `scripts/test` makes it (`scripts/test-venv`, `.build/test-venv`).
@Suite struct ThumbHashReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The venv's interpreter (``MediaTestSupport/TestFixtures/venvPython``).
    static var python: URL? { TestFixtures.venvPython }

    static let directories = ["catalog", "avatars", "receipts", "uploads", "large"]

    @Test(.enabled(if: ThumbHashReferenceTests.python != nil, "scripts/test-venv makes the venv with PyPI thumbhash"))
    func everyCorpusImageHashesAsPyPIThumbhash() throws {
        var lines: [String] = []
        var ours: [String: String] = [:]
        for directory in Self.directories {
            for path in try Fixtures.paths(in: directory) {
                guard let info = try? ImageTransformer.info(try Fixtures.bytes(path), limits: TransformLimits(),
                                                            deadline: nil) else { continue }
                let pixels = info.thumbnail
                lines.append(#"{"name":"\#(path)","width":\#(pixels.width),"height":\#(pixels.height),"rgba":"\#(Data(pixels.bytes).base64EncodedString())"}"#)
                ours[path] = Data(info.thumbHash).base64EncodedString()
            }
        }
        #expect(ours.count >= 20)
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("thumbhash-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = Self.root.appendingPathComponent("Tests/Fixtures/scripts/thumbhash_reference.py")
        let result = try ChildProcess.run(try #require(Self.python), [script.path, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        var compared = 0
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = try #require(object["name"] as? String)
            #expect(ours[name] == object["hash"] as? String, "\(name)")
            compared += 1
        }
        #expect(compared == ours.count)
    }
}
