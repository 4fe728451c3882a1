import Synchronization

/// A Prometheus histogram of durations in seconds (cumulative `le` buckets, `_sum`, `_count`), lock-free:
/// one relaxed atomic per bucket, the sum kept in microseconds.
final class DurationHistogram: Sendable {
    /// Upper bounds, seconds, ascending (`+Inf` is implied).
    let bounds: [Double]
    private let counts: [Atomic<Int>]
    private let total = Atomic<Int>(0)
    private let sumMicroseconds = Atomic<Int>(0)

    /// Transform times: 5 ms to 10 s.
    static let transformBounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    init(bounds: [Double] = DurationHistogram.transformBounds) {
        self.bounds = bounds
        counts = bounds.map { _ in Atomic<Int>(0) }
    }

    func observe(seconds: Double) {
        if let index = bounds.firstIndex(where: { seconds <= $0 }) { counts[index].add(1, ordering: .relaxed) }
        total.add(1, ordering: .relaxed)
        sumMicroseconds.add(Int((max(0, seconds) * 1_000_000).rounded()), ordering: .relaxed)
    }

    /// Cumulative counts per bound, then the total (`+Inf`), and the sum in seconds.
    var snapshot: (cumulative: [Int], count: Int, sum: Double) {
        var running = 0
        let cumulative = counts.map { cell -> Int in
            running += cell.load(ordering: .relaxed)
            return running
        }
        return (cumulative, total.load(ordering: .relaxed), Double(sumMicroseconds.load(ordering: .relaxed)) / 1_000_000)
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
