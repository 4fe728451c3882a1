import MediaStorage

#if canImport(Glibc)
    import Glibc
#endif

/// The crash seam of `mediactl serve`, for crash tests (docs/cli.md, "Crash tests"): with
/// `MEDIACTL_CRASH_BEFORE="<class> <change>"` in its environment, the process kills itself with `SIGKILL` right before
/// the first such change a file store makes, e.g. `encrypted-disk unlink`: a purge of a partition then dies after its
/// data keys were destroyed and before its first file is removed. Unset in production.
struct CrashPoint: FileWriteObserver {
    /// The environment variable: `MEDIACTL_CRASH_BEFORE`.
    static let variable = "MEDIACTL_CRASH_BEFORE"
    /// The classes with file stores: `disk`, `encrypted-disk`.
    static let classes: [StorageClassName] = [.disk, .encryptedDisk]

    let storageClass: StorageClassName
    let kind: FileWritePoint.Kind

    /// The crash point `value` names.
    /// - Throws: ``CommandError`` `invalid-environment` (exit 2), e.g. `MEDIACTL_CRASH_BEFORE is 'disk erase': give
    ///   '<class> <change>', class one of disk, encrypted-disk, change one of write-temporary, sync-temporary, rename,
    ///   sync-folder, unlink`.
    static func parse(_ value: String) throws(CommandError) -> CrashPoint {
        let words = value.split(separator: " ").map(String.init)
        guard words.count == 2, let storageClass = classes.first(where: { $0.rawValue == words[0] }),
              let kind = FileWritePoint.Kind(rawValue: words[1]) else {
            throw CommandError(
                .invalidEnvironment,
                "\(variable) is '\(value)': give '<class> <change>', class one of "
                    + classes.map(\.rawValue).joined(separator: ", ") + ", change one of "
                    + FileWritePoint.Kind.allCases.map(\.rawValue).joined(separator: ", "),
                exitCode: .unusableInput)
        }
        return CrashPoint(storageClass: storageClass, kind: kind)
    }

    /// The crash point of the process's environment, or `nil` when ``variable`` is unset.
    static func fromEnvironment() throws(CommandError) -> CrashPoint? {
        guard let value = getenv(variable) else { return nil }
        return try parse(String(cString: value))
    }

    func willReach(_ point: FileWritePoint) {
        if point.storageClass == storageClass && point.kind == kind { kill(getpid(), SIGKILL) }
    }
}
