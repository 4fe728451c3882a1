import Foundation
import Testing

@testable import MediaService

/// ``StateDirectory/prepare(_:)``: `mkdir -p` with each made folder 0700, the failing folder named with its errno,
/// and an empty path refused (it would put `keys/`, `disk/` and `audit/` at the file system's root).
@Suite struct StateDirectoryTests {
    @Test func makesEveryMissingFolderOwnerOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-sd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try StateDirectory.prepare(root + "/a//b/")
        for folder in [root, root + "/a", root + "/a/b"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
            #expect(mode == 0o700, "\(folder)")
        }
        try StateDirectory.prepare(root + "/a/b")   // existing: nothing to do
    }

    @Test func refusesAnEmptyPathAndAFile() throws {
        #expect(throws: ServiceError(.stateDirectory, "the state directory path is empty")) { try StateDirectory.prepare("") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-sd-\(UUID().uuidString)").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: ServiceError(.stateDirectory, "\(file) exists and is not a directory")) { try StateDirectory.prepare(file) }
        #expect(throws: ServiceError(.stateDirectory, "cannot create \(file)/s: Not a directory (errno 20)")) {
            try StateDirectory.prepare(file + "/s")
        }
    }
}
