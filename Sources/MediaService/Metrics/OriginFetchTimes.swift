import Synchronization

/// `mediactl_origin_fetch_duration_seconds{route}`: how long each origin exchange took, from sending the request to
/// the whole answer (body included) or the failure, by route (docs/operations.md, "Metrics"). Observed once per
/// origin exchange (misses, validations, a variant's source), never on the hit path: a lock per observation is fine.
final class OriginFetchTimes: Sendable {
    /// Origin exchanges: 5 ms to 30 s.
    static let bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private let byRoute = Mutex<[String: DurationHistogram]>([:])

    /// Records one exchange of `route` that took `seconds`.
    func observe(route: String, seconds: Double) {
        byRoute.withLock { table in
            if let histogram = table[route] { return histogram }
            let histogram = DurationHistogram(bounds: Self.bounds)
            table[route] = histogram
            return histogram
        }.observe(seconds: seconds)
    }

    /// The exposition lines, routes by name; routes without an exchange yet have none.
    func lines() -> [String] {
        var lines = [
            "# HELP mediactl_origin_fetch_duration_seconds Time of each origin exchange by route, from sending the request to the whole answer or the failure (misses, validations, a variant's source fetch).",
            "# TYPE mediactl_origin_fetch_duration_seconds histogram",
        ]
        let table = byRoute.withLock { $0 }
        for route in table.keys.sorted() {
            lines += table[route]!.lines(name: "mediactl_origin_fetch_duration_seconds", labels: "route=\"\(route)\"")
        }
        return lines
    }
}
