import Foundation
import Testing
@testable import MediaPolicy

@Suite struct PolicyDirectoryTests {
    static let tiers = #"{ "tiers": { "t": { "storage": "memory" } } }"#
    static func routes(_ name: String, _ mount: String) -> String {
        #"{ "routes": [ { "name": "\#(name)", "mount": "\#(mount)", "origin": "http://o.example/", "tier": "t" } ] }"#
    }

    /// The errors of loading `directory`; empty when it loads.
    func directoryErrors(_ directory: String, _ loader: PolicyLoader = PolicyLoader()) -> [PolicyError] {
        do {
            _ = try loader.load(directory: directory)
            return []
        } catch {
            return error.errors
        }
    }

    func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try PolicyFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test func readsEveryJSONFileSortedByName() throws {
        try withDirectory { directory in
            try PolicyFixture.write(PolicyDirectoryTests.routes("b", "/b/"), to: directory + "/b.json")
            try PolicyFixture.write(PolicyDirectoryTests.routes("a", "/a/"), to: directory + "/a.json")
            try PolicyFixture.write(PolicyDirectoryTests.tiers, to: directory + "/00-tiers.json")
            try PolicyFixture.write("not json", to: directory + "/README.md")
            try PolicyFixture.write("not json", to: directory + "/.hidden.json")
            try FileManager.default.createDirectory(atPath: directory + "/sub.json", withIntermediateDirectories: false)
            let policy = try PolicyLoader().load(directory: directory + "/")
            #expect(policy.files == [directory + "/00-tiers.json", directory + "/a.json", directory + "/b.json"])
            #expect(policy.routes.map(\.name) == ["a", "b"])
            #expect(policy.routes.map(\.file) == [directory + "/a.json", directory + "/b.json"])
            #expect(policy.tiers["t"]?.storage == .memory)
        }
    }

    @Test func errorsNameTheFileAsGiven() throws {
        try withDirectory { directory in
            try PolicyFixture.write(#"{ "tiers": { "t": { "storage": "disk", "maxTTTL": 60 } } }"#, to: directory + "/default.json")
            try PolicyFixture.write(PolicyDirectoryTests.routes("r", "/r/"), to: directory + "/routes.json")
            #expect(throws: PolicyErrorList([PolicyError(
                .unknownKey, file: directory + "/default.json", keyPath: "tiers.t.maxTTTL", value: "60",
                problem: "unknown key (did you mean `maxTTL`?)", allowed: UnknownKeyTests.tierKeys)])) {
                try PolicyLoader().load(directory: directory)
            }
        }
    }

    @Test func emptyDirectory() throws {
        try withDirectory { directory in
            try PolicyFixture.write("x", to: directory + "/notes.txt")
            let errors = directoryErrors(directory)
            #expect(errors.map(\.description) == [
                "\(directory): no policy files (*.json); allowed: one or more *.json files",
            ])
            #expect(errors.first?.code == .noPolicyFiles)
        }
    }

    @Test func missingDirectoryOrAFileInstead() throws {
        try withDirectory { directory in
            try PolicyFixture.write("{}", to: directory + "/file.json")
            for (path, problem) in [(directory + "/missing", "does not exist"), (directory + "/file.json", "is not a directory")] {
                let errors = directoryErrors(path)
                #expect(errors.map(\.description) == [
                    "\(path): \(problem); allowed: a readable directory of *.json policy files",
                ])
                #expect(errors.first?.code == .unreadable)
            }
        }
    }

    @Test func oversizedFile() throws {
        try withDirectory { directory in
            try PolicyFixture.write(PolicyDirectoryTests.tiers, to: directory + "/a.json")
            try PolicyFixture.write(PolicyDirectoryTests.routes("r", "/r/") + String(repeating: " ", count: 100), to: directory + "/b.json")
            let loader = PolicyLoader(configuration: .init(maximumFileBytes: 100))
            #expect(directoryErrors(directory, loader).map(\.description) == [
                "\(directory)/b.json: the file has 193 bytes; allowed: at most 100 bytes",
            ])
            #expect(PolicyLoader.Configuration().maximumFileBytes == 1_048_576)
        }
    }

    @Test func errorsStayInFileOrderAroundAnOversizedFile() throws {
        try withDirectory { directory in
            try PolicyFixture.write("[", to: directory + "/a.json")
            try PolicyFixture.write(String(repeating: " ", count: 200), to: directory + "/b.json")
            try PolicyFixture.write(#"{ "tiers": { "t": { "storage": "dsk" } } }"#, to: directory + "/c.json")
            let loader = PolicyLoader(configuration: .init(maximumFileBytes: 100))
            #expect(directoryErrors(directory, loader).map(\.description) == [
                "\(directory)/a.json: invalid JSON at line 1, column 2: unexpected end of file, expected a value; allowed: JSON (RFC 8259) without comments or trailing commas",
                "\(directory)/b.json: the file has 200 bytes; allowed: at most 100 bytes",
                #"\#(directory)/c.json: tiers.t.storage: "dsk" is not allowed (did you mean `disk`?); allowed: disk, encrypted-disk, memory, none"#,
            ])
        }
    }

    @Test func oversizedSourceInMemory() {
        let loader = PolicyLoader(configuration: .init(maximumFileBytes: 4))
        #expect(throws: PolicyErrorList([PolicyError(
            .unreadable, file: "P/a.json", keyPath: "", value: nil, problem: "the file has 5 bytes", allowed: "at most 4 bytes")])) {
            try loader.load(sources: [.init(name: "P/a.json", text: "12345")])
        }
    }

    @Test func invalidJSONOnDiskHasLineAndColumn() throws {
        try withDirectory { directory in
            try PolicyFixture.write("{ \"tiers\": {\n  \"t\": { \"storage\": \"disk\" },\n}\n", to: directory + "/default.json")
            let errors = directoryErrors(directory)
            #expect(errors.map(\.description) == [
                "\(directory)/default.json: invalid JSON at line 3, column 1: unexpected character '}', expected a member name in double quotes; allowed: JSON (RFC 8259) without comments or trailing commas",
            ])
            #expect(errors.first?.code == .invalidJSON)
        }
    }
}
