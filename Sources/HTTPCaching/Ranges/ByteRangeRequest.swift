/// A `Range: bytes=…` request field value (RFC 9110 §14.1.2, §14.2): the range-specs of a `bytes`
/// ranges-specifier, in the order sent. Parsed by ``init(_:)``; resolved against a representation's length
/// by ``resolve(length:)``.
public struct ByteRangeRequest: Sendable, Hashable {
    /// One range-spec (RFC 9110 §14.1.2). Positions too large for `Int` are `Int.max` (they are offsets
    /// no representation reaches, so the answer is the same as for their exact value).
    public enum Spec: Sendable, Hashable {
        /// `int-range = first-pos "-" [ last-pos ]`, with `last >= first` when present.
        case int(first: Int, last: Int?)
        /// `suffix-range = "-" suffix-length`: the last `length` bytes.
        case suffix(length: Int)
    }

    /// What a range request asks of a representation of a given length.
    public enum Resolution: Sendable, Hashable {
        /// The satisfiable ranges in request order (RFC 9110 §14.1.1). Empty only for a representation of
        /// length 0 asked for a non-zero suffix (satisfiable by the RFC's rule, but no byte can be sent).
        case satisfiable([ByteRange])
        /// No range-spec can be satisfied: every `first-pos` is at or past the length and every suffix
        /// is `0` (answered `416` with `Content-Range: bytes */<length>`).
        case unsatisfiable
    }

    /// The range-specs, at least one.
    public var specs: [Spec]

    public init(specs: [Spec]) {
        self.specs = specs
    }

    /// The ranges `specs` select in a representation of `length` bytes (RFC 9110 §14.1.1–14.1.2): an
    /// int-range is satisfiable when `first < length` and ends at `min(last, length - 1)` (an absent
    /// `last` means `length - 1`); a suffix-range is satisfiable when its length is non-zero and covers
    /// the last `min(suffix, length)` bytes. A negative `length` counts as 0.
    public func resolve(length: Int) -> Resolution {
        let length = max(0, length)
        var ranges: [ByteRange] = []
        var satisfiable = false
        for spec in specs {
            switch spec {
            case .int(let first, let last):
                guard first < length else { continue }
                satisfiable = true
                ranges.append(ByteRange(first: first, last: min(last ?? (length - 1), length - 1)))
            case .suffix(let suffix):
                guard suffix > 0 else { continue }
                satisfiable = true
                if length > 0 { ranges.append(ByteRange(first: length - min(suffix, length), last: length - 1)) }
            }
        }
        return satisfiable ? .satisfiable(ranges) : .unsatisfiable
    }
}
