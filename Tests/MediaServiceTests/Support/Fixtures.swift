import Foundation
import MediaTestSupport

/// The files of Tests/Fixtures/corpus (``TestFixtures``).
typealias Fixtures = TestFixtures

extension Fixtures {
    /// One row of MANIFEST.tsv.
    struct Entry: Sendable, CustomTestStringConvertible {
        let path: String
        let bytes: Int
        let format: String
        let width: Int?
        let height: Int?
        let tier: String
        var testDescription: String { path }
    }

    static func manifest() throws -> [Entry] {
        let text = try String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Entry(path: columns[0], bytes: Int(columns[1])!, format: columns[3],
                         width: Int(columns[4]), height: Int(columns[5]), tier: columns[6])
        }
    }
}

import Testing
