import Foundation

/// The sample images bundled with `mediactl` (`Resources/samples`, see its SOURCES.md), served
/// by the embedded origin of `mediactl demo`: one folder per default route (`avatars`, `catalog`,
/// `one-time`, `receipts`).
public enum DemoSamples {
    /// One bundled image.
    public struct Sample: Sendable, Hashable {
        /// The folder, which is also the default route's name, such as `"catalog"`.
        public let folder: String
        /// The file name, such as `"coffee-237a7131.jpg"`.
        public let name: String
        /// The absolute path of the file inside the resource bundle.
        public let path: String

        /// The path below the origin and mount: `"/catalog/coffee-237a7131.jpg"`.
        public var requestPath: String { "/\(folder)/\(name)" }
    }

    /// The bundled `samples` folder, or `nil` when the resource bundle is missing.
    public static var directory: URL? {
        Bundle.module.url(forResource: "samples", withExtension: nil)
    }

    /// Every bundled image (files in the folders; `SOURCES.md` and dot files excluded), sorted
    /// by folder then name.
    /// - Throws: ``CommandError`` `unreadableFile` (exit 2):
    ///   `cannot read the bundled samples: <reason>`.
    public static func all() throws(CommandError) -> [Sample] {
        guard let directory else {
            throw CommandError(
                .unreadableFile, "cannot read the bundled samples: resource bundle not found", exitCode: .unusableInput)
        }
        let manager = FileManager.default
        var samples: [Sample] = []
        do {
            for folder in try manager.contentsOfDirectory(atPath: directory.path) where !folder.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let folderPath = directory.appendingPathComponent(folder).path
                guard manager.fileExists(atPath: folderPath, isDirectory: &isDirectory), isDirectory.boolValue else {
                    continue
                }
                for name in try manager.contentsOfDirectory(atPath: folderPath) where !name.hasPrefix(".") {
                    samples.append(Sample(folder: folder, name: name, path: folderPath + "/" + name))
                }
            }
        } catch {
            throw CommandError(
                .unreadableFile, "cannot read the bundled samples: \(error.localizedDescription)",
                exitCode: .unusableInput)
        }
        return samples.sorted { ($0.folder, $0.name) < ($1.folder, $1.name) }
    }
}
