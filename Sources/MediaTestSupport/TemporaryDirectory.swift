import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// `path/name`, written with `contents` when given.
    public func file(_ name: String, contents: String? = nil) throws -> String {
        let filePath = path + "/" + name
        if let contents {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: filePath))
        }
        return filePath
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
