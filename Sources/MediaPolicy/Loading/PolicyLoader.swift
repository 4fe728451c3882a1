import Foundation
import MediaCore

/// Reads and validates a policy directory (`Policies/*.json`) into a ``PolicySet``.
///
/// Every `*.json` regular file of the directory (not hidden, not in subdirectories) is read, in
/// byte order of the file name, and merged: tiers and routes may be spread over files; a tier may
/// be defined once. Validation is strict and collects every problem (docs/policy-format.md).
public struct PolicyLoader: Sendable {
    /// Loader limits.
    public struct Configuration: Sendable, Hashable {
        /// Largest policy file read, bytes. Default: 1,048,576 (1 MiB).
        public var maximumFileBytes: Int

        public init(maximumFileBytes: Int = 1_048_576) {
            self.maximumFileBytes = maximumFileBytes
        }
    }

    /// One policy file's name (as shown in errors, e.g. `Policies/default.json`) and bytes.
    public struct Source: Sendable, Hashable {
        /// The name shown in errors and ``Route/file``, e.g. `Policies/default.json`.
        public var name: String
        /// The file's bytes (UTF-8 JSON).
        public var bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }

        public init(name: String, text: String) {
            self.init(name: name, bytes: Array(text.utf8))
        }
    }

    /// The loader's limits.
    public var configuration: Configuration

    /// A loader with `configuration` (default: ``Configuration/init(maximumFileBytes:)`` defaults).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Loads every `*.json` file of `directory`.
    ///
    /// Files are named in errors as `directory` + `/` + file name (a trailing `/` of `directory` is
    /// dropped), so `load(directory: "Policies")` reports `Policies/default.json`.
    /// - Throws: ``PolicyErrorList`` with every problem: ``PolicyError/Code/unreadable`` (directory or
    ///   file unreadable, file over ``Configuration/maximumFileBytes``),
    ///   ``PolicyError/Code/noPolicyFiles``, and everything ``load(sources:directory:)`` throws.
    public func load(directory: String) throws(PolicyErrorList) -> PolicySet {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: trimmed, isDirectory: &isDirectory)
        guard exists, isDirectory.boolValue, let names = try? manager.contentsOfDirectory(atPath: trimmed) else {
            let problem = !exists ? Self.missing(trimmed) : !isDirectory.boolValue ? "is not a directory"
                : "cannot read the directory: \(Self.openFailure(trimmed, directory: true))"
            throw PolicyErrorList([PolicyError(
                .unreadable, file: trimmed, keyPath: "", value: nil, problem: problem,
                allowed: "a readable directory of *.json policy files")])
        }
        let prefix = trimmed == "/" ? "/" : trimmed + "/"
        let files = names
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var entries: [Entry] = []
        for name in files {
            let path = prefix + name
            var isSubdirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isSubdirectory), !isSubdirectory.boolValue else { continue }
            let size = (try? manager.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            if size > configuration.maximumFileBytes {
                entries.append(.failed(tooLarge(path, size)))
            } else if let data = manager.contents(atPath: path) {
                entries.append(.source(Source(name: path, bytes: [UInt8](data))))
            } else {
                entries.append(.failed(Self.unreadableFile(path)))
            }
        }
        return try load(entries: entries, directory: trimmed)
    }

    /// The problem of a policy file that could not be read: `cannot read the file: Permission denied (errno 13)`.
    public static func unreadableFile(_ path: String) -> PolicyError {
        PolicyError(.unreadable, file: path, keyPath: "", value: nil,
                    problem: "cannot read the file: \(openFailure(path, directory: false))", allowed: "a readable JSON file")
    }

    /// `does not exist`, or why it cannot be looked at when `stat` fails for another reason (a parent folder others
    /// may not search: `cannot be looked at: Permission denied (errno 13)`).
    static func missing(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) != 0, errno != ENOENT else { return "does not exist" }
        return "cannot be looked at: \(SystemErrorText.current)"
    }

    /// Why `path` cannot be opened, in ``MediaCore/SystemErrorText`` wording, learnt by opening it again.
    static func openFailure(_ path: String, directory: Bool) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (directory ? O_DIRECTORY : 0))
        guard descriptor >= 0 else { return SystemErrorText.current }
        close(descriptor)
        return "the read failed"
    }
}
