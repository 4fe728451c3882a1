import MediaServer
import MediaService

extension ServeCommand {
    /// Opens `--access-log` for `service` (paths of tiers in ``MediaServer/AccessLogFormat/clearPathTiers(_:)`` in
    /// clear, the others as ``MediaService/MediaService/accessLogPathDigest(_:)``); `nil` without `--access-log`.
    /// `SIGUSR1` reopens it (``reopen(_:log:)``).
    /// - Parameter destination: the file opened before the state directory (``openAccessLogFile()``).
    func openAccessLog(
        _ destination: AccessLog.Destination?, service: MediaService, configuration: AccessLog.Configuration
    ) -> AccessLog? {
        guard let destination else { return nil }
        let format = AccessLogFormat(clearPathTiers: AccessLogFormat.clearPathTiers(service.policies)) { [service] in
            service.accessLogPathDigest($0)
        }
        return AccessLog(destination: destination, format: format, configuration: configuration)
    }

    /// Opens the `--access-log` file, before the state directory (a start that cannot log writes no audit record);
    /// `nil` without `--access-log`.
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2) when the file cannot be opened.
    func openAccessLogFile() throws(CommandError) -> AccessLog.Destination? {
        guard let path = accessLog else { return nil }
        do {
            return try AccessLog.open(path: path)
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
