import Synchronization

/// A Prometheus histogram of durations observed on the request path: lock-free (one relaxed atomic add per bucket,
/// count and sum), so every connection thread records without contending on a lock. Buckets in microseconds,
/// exported in seconds.
final class LatencyHistogram: Sendable {
    /// One atomic counter, boxed so an array can hold it.
    final class Cell: Sendable {
        let value = Atomic<Int>(0)
        func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
        var load: Int { value.load(ordering: .relaxed) }
    }

    /// Upper bounds, microseconds, ascending (`+Inf` is implied).
    let bounds: [Int]
    private let buckets: [Cell]
    private let total = Cell()
    private let sumMicroseconds = Cell()

    /// Request durations: 0.5 ms to 10 s.
    static let requestBounds = [500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
                                1_000_000, 2_500_000, 5_000_000, 10_000_000]

    init(bounds: [Int] = LatencyHistogram.requestBounds) {
        self.bounds = bounds
        buckets = bounds.map { _ in Cell() }
    }

    /// Records one duration (negative values count as 0).
    func observe(microseconds: Int64) {
        let value = Int(max(0, microseconds))
        if let index = bounds.firstIndex(where: { value <= $0 }) { buckets[index].add(1) }
        total.add(1)
        sumMicroseconds.add(value)
    }

    /// How many durations were observed.
    var count: Int { total.load }

    /// The exposition lines of `name` for `labels` (e.g. `tier="public",outcome="hit"`): cumulative `le` buckets in
    /// seconds, `+Inf`, `_sum` (seconds) and `_count`. Read without a lock: a scrape racing a request may see its
    /// bucket without its count, as any lock-free Prometheus client can.
    func lines(name: String, labels: String) -> [String] {
        var out: [String] = []
        var running = 0
        for (bound, cell) in zip(bounds, buckets) {
            running += cell.load
            out.append("\(name)_bucket{\(labels),le=\"\(DurationHistogram.format(Double(bound) / 1_000_000))\"} \(running)")
        }
        let count = total.load
        out.append("\(name)_bucket{\(labels),le=\"+Inf\"} \(max(count, running))")
        out.append("\(name)_sum{\(labels)} \(DurationHistogram.format(Double(sumMicroseconds.load) / 1_000_000))")
        out.append("\(name)_count{\(labels)} \(max(count, running))")
        return out
    }
}
