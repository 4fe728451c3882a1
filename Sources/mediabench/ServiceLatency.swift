/// Per-call latency samples in nanoseconds, and their percentiles.
struct ServiceLatency {
    private(set) var samples: [UInt64]

    init(capacity: Int) {
        samples = []
        samples.reserveCapacity(capacity)
    }

    mutating func record(_ nanoseconds: UInt64) { samples.append(nanoseconds) }

    /// The `fraction` percentile (0…1, nearest rank) in nanoseconds; 0 when empty.
    func percentile(_ fraction: Double) -> UInt64 {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// `p50 X ns, p99 Y ns, p99.9 Z ns` (microseconds above 10 µs).
    var summary: String {
        let parts = [("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999)].map { name, fraction in
            "\(name) \(ServiceLatency.format(percentile(fraction)))"
        }
        return parts.joined(separator: ", ")
    }

    static func format(_ nanoseconds: UInt64) -> String {
        if nanoseconds >= 10_000 {
            let micros = (Double(nanoseconds) / 100).rounded() / 10
            return "\(micros) us"
        }
        return "\(nanoseconds) ns"
    }
}
