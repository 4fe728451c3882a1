import Foundation

/// Reads files of Tests/Fixtures/corpus through a path relative to this source file.
enum Fixtures {
    static let corpus: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/corpus")

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
    }

    /// The relative paths of the files in `directory` (one level), sorted.
    static func files(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(directory).path)
            .sorted().map { "\(directory)/\($0)" }
    }
}
