import MediaService

#if canImport(Glibc)
    import Glibc
#endif

extension ServeCommand {
    /// The access log of `--access-log` and its `SIGUSR1` watcher.
    struct AccessLogSetup: Sendable {
        let log: AccessLog
        /// `nil` when ``Configuration/until`` ends the run (tests in-process: no process-wide signals).
        let reopen: ReopenSignal?

        /// Writes what is queued, closes the file and restores `SIGUSR1`'s previous action.
        func close() {
            reopen?.cancel()
            log.close()
        }
    }

    /// Opens `--access-log` for `service` (paths of tiers in ``AccessLogFormat/clearPathTiers(_:)`` in clear,
    /// the others as ``MediaService/MediaService/accessLogPathDigest(_:)``), and installs `SIGUSR1` to reopen
    /// it; a failed reopen is reported on stderr and the previous file kept. `nil` without `--access-log`.
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2) when the file cannot be opened; `signal-handling`
    ///   (exit 1) when `SIGUSR1` cannot be handled.
    func openAccessLog(service: MediaService, context: CommandContext) throws(CommandError) -> AccessLogSetup? {
        guard let path = options.accessLog else { return nil }
        let format = AccessLogFormat(clearPathTiers: AccessLogFormat.clearPathTiers(service.policies)) { [service] in
            service.accessLogPathDigest($0)
        }
        let log = try AccessLog(path: path, format: format, configuration: configuration.accessLog)
        guard configuration.until == nil else { return AccessLogSetup(log: log, reopen: nil) }
        do throws(CommandError) {
            let reopen = try ReopenSignal(signal: SIGUSR1) {
                do throws(CommandError) {
                    try log.reopen()
                } catch {
                    context.diagnose("\(error.message); still writing to the previous file")
                }
            }
            return AccessLogSetup(log: log, reopen: reopen)
        } catch {
            log.close()
            throw error
        }
    }
}
