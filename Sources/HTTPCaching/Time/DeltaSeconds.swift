import MediaCore

// EpochSeconds (MediaCore): every function of this module that needs "now" takes one.

/// The largest delta-seconds value this module represents: 2,147,483,648 (2^31), the value
/// RFC 9111 §1.2.2 requires for anything larger or for any overflowing calculation.
public let maximumDeltaSeconds: Int64 = 2_147_483_648

extension Int64 {
    /// `self + other`, clamped to `Int64.min ... Int64.max` instead of trapping.
    @inline(__always) func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped to `Int64.min ... Int64.max` instead of trapping.
    @inline(__always) func saturatingSubtract(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    /// `self` clamped to `0 ... maximumDeltaSeconds` (RFC 9111 §1.2.2).
    @inline(__always) var clampedDeltaSeconds: Int64 {
        Swift.min(Swift.max(self, 0), maximumDeltaSeconds)
    }
}
