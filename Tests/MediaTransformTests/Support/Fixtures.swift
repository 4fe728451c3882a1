import Foundation

/// Reads files of Tests/Fixtures/corpus through a path relative to this source file.
enum Fixtures {
    static let corpus: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/corpus")

    /// The bytes of `relativePath` under the corpus, e.g. `large/hubble-1000.jpg`.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
    }

    /// The names of the files in `folder` (e.g. `hostile`), sorted.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path).sorted()
    }
}

extension Fixtures {
    /// The relative paths of the files in `directory` (one level, e.g. `hostile/empty.jpg`), sorted.
    static func paths(in directory: String) throws -> [String] {
        try files(in: directory).map { "\(directory)/\($0)" }
    }
}
