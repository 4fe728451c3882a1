import MediaTestSupport

/// The files of Tests/Fixtures/corpus (``TestFixtures``).
typealias Fixtures = TestFixtures

extension Fixtures {
    /// The relative paths of the files in `directory` (one level, e.g. `hostile/empty.jpg`), sorted.
    static func paths(in directory: String) throws -> [String] {
        try files(in: directory).map { "\(directory)/\($0)" }
    }
}
