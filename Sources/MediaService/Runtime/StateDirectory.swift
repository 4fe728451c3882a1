import Foundation
import MediaCore

/// The state directory (docs/architecture.md, "State directory"): `disk/`, `sealed/`, `audit/`, all 0700.
enum StateDirectory {
    /// Creates `path` (0700) when missing.
    /// - Throws: ``ServiceError`` `state-directory` naming the folder that could not be made, e.g.
    ///   `cannot create /srv/state: Permission denied (errno 13)`.
    static func prepare(_ path: String) throws {
        guard !path.isEmpty else { throw ServiceError(.stateDirectory, "the state directory path is empty") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ServiceError(.stateDirectory, "\(path) exists and is not a directory")
            }
            return
        }
        // mkdir -p, each missing folder 0700, so the failing folder and its errno are the ones reported.
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix == "/" ? "" : "/") + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw ServiceError(.stateDirectory, "cannot create \(prefix): \(SystemErrorText.current)")
            }
        }
    }
}
