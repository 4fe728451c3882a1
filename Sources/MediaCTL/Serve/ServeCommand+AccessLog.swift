import MediaServer
import MediaService

extension ServeCommand {
    /// Opens `--access-log` for `service` (paths of tiers in ``MediaServer/AccessLogFormat/clearPathTiers(_:)`` in
    /// clear, the others as ``MediaService/MediaService/accessLogPathDigest(_:)``); `nil` without `--access-log`.
    /// `SIGUSR1` reopens it (``reopen(_:log:)``).
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2) when the file cannot be opened.
    func openAccessLog(service: MediaService) throws(CommandError) -> AccessLog? {
        guard let path = options.accessLog else { return nil }
        let format = AccessLogFormat(clearPathTiers: AccessLogFormat.clearPathTiers(service.policies)) { [service] in
            service.accessLogPathDigest($0)
        }
        do {
            return try AccessLog(path: path, format: format, configuration: configuration.accessLog)
        } catch {
            throw CommandError(.unwritableFile, error.message, exitCode: .unusableInput)
        }
    }

    /// Reopens the access log (after `SIGUSR1`); a failure is reported on stderr and the previous file kept.
    static func reopen(_ accessLog: AccessLog?, log: ServiceLog) {
        do throws(AccessLogError) {
            try accessLog?.reopen()
        } catch {
            log.log(.warn, "\(error.message); still writing to the previous file")
        }
    }
}
