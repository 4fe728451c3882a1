import Synchronization

/// A tier's signed requests by outcome: `mediactl_signed_url_requests_total{tier="…",outcome="…"}`.
final class SignedURLCounters: Sendable {
    /// The outcomes, as exported: `verified`, `signature-required` (unsigned on a `required` tier), then each
    /// refusal code of ``MediaSigning/SignatureRefusal/Code``.
    static let outcomes = ["verified", "signature-required", "signature-malformed", "unknown-key-id", "signature-invalid",
                           "signature-expired", "signature-lifetime-too-long"]
    private let counts = Mutex<[Int]>(Array(repeating: 0, count: SignedURLCounters.outcomes.count))

    /// Counts one request with `outcome` (one of ``outcomes``; another is not counted).
    func count(_ outcome: String) {
        guard let index = Self.outcomes.firstIndex(of: outcome) else { return }
        counts.withLock { $0[index] += 1 }
    }

    /// Counts one `verified` request (the hit path's: no lookup of the name).
    func countVerified() {
        counts.withLock { $0[0] += 1 }
    }

    /// Each outcome with its count, in ``outcomes`` order.
    var values: [(outcome: String, count: Int)] {
        let current = counts.withLock { $0 }
        return Self.outcomes.indices.map { (Self.outcomes[$0], current[$0]) }
    }
}
