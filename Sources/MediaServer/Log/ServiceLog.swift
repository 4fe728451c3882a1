import Foundation
import MediaAudit
import MediaCore

/// The service log of `mediactl serve` (docs/operations.md, "Service log"): what the service says about itself and
/// about requests that went wrong, on standard error, as text or JSON Lines, from a level up.
///
/// - Text (the default): `mediactl: <message>`, and for a line about one request
///   `mediactl: request <id>: <message>`.
/// - JSON: one object per line, keys in this order: `time` (RFC 3339 UTC, milliseconds), `level`, `message`, and
///   `request_id` on a line about one request.
///
/// Lines carry what the access log may carry and no more: never a credential, a cookie, a signed URL's parameters or
/// a path (only route and tier names, statuses, problem codes and durations).
public final class ServiceLog: Sendable {
    /// How severe a line is; a log writes its ``level`` and above.
    public enum Level: String, CaseIterable, Sendable, Comparable {
        /// Every answered request (route, tier, status, outcome, duration).
        case debug
        /// What the service does: start, reloads, stop.
        case info
        /// What an operator should look at: requests answered with a 5xx, a public admin listener, a log it
        /// cannot reopen.
        case warn
        /// What stops the service from doing its job: the audit log cannot be written.
        case error

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warn: 2
            case .error: 3
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// How lines are written.
    public enum Format: String, CaseIterable, Sendable {
        case text
        case json
    }

    public let format: Format
    public let level: Level
    private let now: @Sendable () -> Double
    private let sink: @Sendable (String) -> Void

    /// A log writing lines of `level` and above in `format` to `sink` (one call per line, without `\n`).
    /// - Parameter now: seconds since the epoch, for JSON's `time`. Default: the system clock.
    public init(format: Format = .text, level: Level = .info, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                sink: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.level = level
        self.now = now
        self.sink = sink
    }

    /// Whether lines of `level` are written (check before building an expensive message).
    @inline(__always)
    public func writes(_ level: Level) -> Bool { level >= self.level }

    /// Writes `message` at `level`, about the request `requestID` when given.
    public func log(_ level: Level, _ message: String, requestID: String? = nil) {
        guard writes(level) else { return }
        sink(line(level, message, requestID: requestID))
    }

    /// The line ``log(_:_:requestID:)`` writes.
    func line(_ level: Level, _ message: String, requestID: String?) -> String {
        switch format {
        case .text:
            return "mediactl: " + (requestID.map { "request \($0): " } ?? "") + message
        case .json:
            var out: [UInt8] = Array(#"{"time":""#.utf8)
            out += Array(AuditTime(millisecondsSinceEpoch: Int64((now() * 1000).rounded(.down))).rfc3339.utf8)
            out += Array(#"","level":""#.utf8) + Array(level.rawValue.utf8) + Array(#"","message":"#.utf8)
            JSONString.append(message, to: &out, escapingSlashes: false)
            if let requestID {
                out += Array(#","request_id":"#.utf8)
                JSONString.append(requestID, to: &out, escapingSlashes: false)
            }
            out.append(UInt8(ascii: "}"))
            return String(decoding: out, as: UTF8.self)
        }
    }
}
