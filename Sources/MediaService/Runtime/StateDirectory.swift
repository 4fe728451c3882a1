import Foundation

/// The state directory (docs/architecture.md, "State directory"): `disk/`, `sealed/`, `audit/`, all 0700.
enum StateDirectory {
    /// Creates `path` (0700) when missing.
    /// - Throws: ``ServiceError`` `state-directory` naming the path.
    static func prepare(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ServiceError(.stateDirectory, "\(path) exists and is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServiceError(.stateDirectory, "cannot create \(path): \(error.localizedDescription)")
        }
    }
}
