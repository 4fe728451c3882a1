import Synchronization

/// A Prometheus histogram of durations in seconds (cumulative `le` buckets, `_sum`, `_count`). One lock:
/// it is observed once per transform (milliseconds of work each), never on the hit path.
final class DurationHistogram: Sendable {
    private struct Counts {
        var buckets: [Int]
        var total = 0
        var sumMicroseconds = 0
    }

    /// Upper bounds, seconds, ascending (`+Inf` is implied).
    let bounds: [Double]
    private let counts: Mutex<Counts>

    /// Transform times: 5 ms to 10 s.
    static let transformBounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    init(bounds: [Double] = DurationHistogram.transformBounds) {
        self.bounds = bounds
        counts = Mutex(Counts(buckets: bounds.map { _ in 0 }))
    }

    func observe(seconds: Double) {
        let index = bounds.firstIndex(where: { seconds <= $0 })
        counts.withLock { counts in
            if let index { counts.buckets[index] += 1 }
            counts.total += 1
            counts.sumMicroseconds += Int((max(0, seconds) * 1_000_000).rounded())
        }
    }

    /// Cumulative counts per bound, then the total (`+Inf`), and the sum in seconds.
    var snapshot: (cumulative: [Int], count: Int, sum: Double) {
        let current = counts.withLock { $0 }
        var running = 0
        let cumulative = current.buckets.map { count -> Int in
            running += count
            return running
        }
        return (cumulative, current.total, Double(current.sumMicroseconds) / 1_000_000)
    }

    /// The exposition lines of `name` for `labels` (e.g. `tier="public"`).
    func lines(name: String, labels: String) -> [String] {
        let (cumulative, count, sum) = snapshot
        var out: [String] = []
        for (bound, value) in zip(bounds, cumulative) {
            out.append("\(name)_bucket{\(labels),le=\"\(Self.format(bound))\"} \(value)")
        }
        out.append("\(name)_bucket{\(labels),le=\"+Inf\"} \(count)")
        out.append("\(name)_sum{\(labels)} \(Self.format(sum))")
        out.append("\(name)_count{\(labels)} \(count)")
        return out
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
