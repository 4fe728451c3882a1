#if canImport(Glibc)
    import Glibc
#endif

/// Checks that a `--state-dir` exists before a command reads it (commands that read never create it).
enum StateDirectoryCheck {
    /// - Throws: ``CommandError`` `no-state-directory` (exit 2):
    ///   `state directory 'X' does not exist` or `state directory 'X' is not a directory`.
    static func requireExisting(_ path: String) throws(CommandError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CommandError(.noStateDirectory, "state directory '\(path)' does not exist", exitCode: .unusableInput)
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandError(
                .noStateDirectory, "state directory '\(path)' is not a directory", exitCode: .unusableInput)
        }
    }
}
