import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// `path/name`, written with `contents` when given.
    func file(_ name: String, contents: String? = nil) throws -> String {
        let filePath = path + "/" + name
        if let contents {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: filePath))
        }
        return filePath
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
