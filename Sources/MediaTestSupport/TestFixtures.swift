import Foundation

/// The repository's `Tests/Fixtures/`, found from this source file's path (`#filePath`, so no bundle
/// resources): `corpus/` holds the images (by route, listed in `MANIFEST.tsv`), `policies/` the policy files
/// tests share (see ``defaultPolicy``).
public enum TestFixtures {
    /// `Tests/Fixtures/`.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures")

    /// The interpreter of the venv the tests compare against PyPI in (`scripts/test-venv`: PyPI `thumbhash` and
    /// `cryptography`): `$MEDIACTL_TEST_VENV/bin/python3`, else `.build/test-venv/bin/python3`; `nil` when there is none.
    public static var venvPython: URL? {
        let repository = root.deletingLastPathComponent().deletingLastPathComponent()
        let venv = ProcessInfo.processInfo.environment["MEDIACTL_TEST_VENV"].map { URL(fileURLWithPath: $0) }
            ?? repository.appendingPathComponent(".build/test-venv")
        let python = venv.appendingPathComponent("bin/python3")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }

    /// `Tests/Fixtures/corpus/`.
    public static let corpus: URL = root.appendingPathComponent("corpus")

    /// `Tests/Fixtures/policies/`.
    public static let policies: URL = root.appendingPathComponent("policies")

    /// The bytes of `relativePath` under ``corpus``, e.g. `large/hubble-1000.jpg`.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
    }

    /// The names of the files in `folder` under ``corpus`` (e.g. `hostile`), sorted.
    public static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path).sorted()
    }

    /// The text of `name` under ``policies`` (e.g. `default.json`), without the file's final newline.
    public static func policyText(_ name: String) throws -> String {
        let text = try String(contentsOf: policies.appendingPathComponent(name), encoding: .utf8)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
