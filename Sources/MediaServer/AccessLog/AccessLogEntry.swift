#if canImport(Glibc)
    import Glibc
#endif

/// What the answering thread copies for one access-log line (docs/operations.md, "Access log"): raw facts
/// only, no formatting. ``AccessLog`` formats it on its writer thread with ``AccessLogFormat``, which
/// decides what of the target may appear.
public struct AccessLogEntry: Sendable, Hashable {
    /// When the request was taken up: milliseconds since 1970-01-01T00:00:00Z (`CLOCK_REALTIME`).
    public var milliseconds: Int64
    /// The request id: 1, 2, … in the order lines are queued, unique per process. Assigned by
    /// ``AccessLog/record(_:)``; a line dropped by a full queue still takes its id, so a gap shows a drop.
    public var id: UInt64
    /// The method as received, such as `GET`; `nil` for a request the HTTP server refused unparsed.
    public var method: String?
    /// The request-target as received (path and query), `nil` for a request the HTTP server refused unparsed.
    /// Never written as is for tiers whose paths are private.
    public var target: String?
    /// The status code sent.
    public var status: Int
    /// Body bytes sent (0 for `HEAD` and `304`).
    public var bytes: Int
    /// Microseconds from taking the request up to the answer handed to the server (monotonic clock).
    public var durationMicroseconds: Int64
    /// The matched route, or `nil` (no route, a refusal before routing, an admin endpoint).
    public var route: String?
    /// The route's tier, or `nil`.
    public var tier: String?
    /// The `Cache-Status` value the service sent (RFC 9211), or `nil`.
    public var cacheStatus: String?
    /// A derived image's normalised parameters (`w=144,fit=inside,fmt=jpeg,q=80`), or `nil`.
    public var variant: String?
    /// The keyed digest of the credential on a partitioned tier, or `nil`.
    public var partition: String?
    /// The origin's status when this request contacted the origin and got an answer, else `nil`.
    public var originStatus: Int?
    /// Microseconds this request spent in origin exchanges, or `nil` when it made none.
    public var originMicroseconds: Int64?
    /// The request id (``MediaService/RequestID``): `request_id`, after `id`; `nil` writes none.
    public var requestID: String?

    public init(milliseconds: Int64, id: UInt64 = 0, method: String?, target: String?, status: Int, bytes: Int,
                durationMicroseconds: Int64, route: String? = nil, tier: String? = nil, cacheStatus: String? = nil,
                variant: String? = nil, partition: String? = nil, originStatus: Int? = nil,
                originMicroseconds: Int64? = nil, requestID: String? = nil) {
        self.requestID = requestID
        self.milliseconds = milliseconds
        self.id = id
        self.method = method
        self.target = target
        self.status = status
        self.bytes = bytes
        self.durationMicroseconds = durationMicroseconds
        self.route = route
        self.tier = tier
        self.cacheStatus = cacheStatus
        self.variant = variant
        self.partition = partition
        self.originStatus = originStatus
        self.originMicroseconds = originMicroseconds
    }
}

/// The two clock readings an access-log line needs, taken when a request is taken up.
public struct AccessLogStart: Sendable, Hashable {
    /// Wall-clock milliseconds since the epoch (`CLOCK_REALTIME`).
    public var milliseconds: Int64
    /// Monotonic microseconds (`CLOCK_MONOTONIC`), for the duration.
    public var monotonicMicroseconds: Int64

    public init(milliseconds: Int64, monotonicMicroseconds: Int64) {
        self.milliseconds = milliseconds
        self.monotonicMicroseconds = monotonicMicroseconds
    }

    /// Both clocks now (two vDSO calls, no system call).
    public static func now() -> AccessLogStart {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return AccessLogStart(milliseconds: Int64(wall.tv_sec) * 1_000 + Int64(wall.tv_nsec) / 1_000_000,
                              monotonicMicroseconds: monotonicMicroseconds())
    }

    /// Monotonic microseconds now.
    public static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }

    /// Microseconds from this start to now, at least 0.
    public var elapsedMicroseconds: Int64 { max(0, Self.monotonicMicroseconds() - monotonicMicroseconds) }
}
