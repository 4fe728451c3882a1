extension ByteRangeRequest {
    /// Parses a `Range` field value (RFC 9110 §14.1.2):
    ///
    /// ```
    /// ranges-specifier = range-unit "=" range-set
    /// range-set        = 1#range-spec
    /// range-spec       = int-range / suffix-range / other-range
    /// ```
    ///
    /// The unit must be `bytes` (compared ignoring ASCII case, §14.1); OWS is allowed around the value and
    /// around each list element, empty list elements are skipped (§5.6.1), positions are `1*DIGIT` (leading
    /// zeros allowed; values past `Int.max` saturate).
    /// - Returns: `nil` when the value is not a valid `bytes` ranges-specifier: another unit, no `=`,
    ///   whitespace inside a range-spec, an `other-range`, a sign, `last-pos < first-pos` (`bytes=5-3`),
    ///   a bare `-`, or no range-spec at all. A server ignores such a field (§14.2) and sends the whole
    ///   representation.
    /// - Complexity: O(n) in the length of `value`.
    public init?(_ value: some StringProtocol) {
        var text = String(value)
        guard let specs = text.withUTF8({ Self.parse($0) }) else { return nil }
        self.init(specs: specs)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [Spec]? {
        var lower = 0, upper = bytes.count
        while lower < upper, isOWS(bytes[lower]) { lower += 1 }
        while upper > lower, isOWS(bytes[upper - 1]) { upper -= 1 }
        let unit: StaticString = "bytes="
        guard upper - lower > unit.utf8CodeUnitCount else { return nil }
        for index in 0..<unit.utf8CodeUnitCount {
            let byte = bytes[lower + index]
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if folded != unit.utf8Start[index] { return nil }
        }
        var specs: [Spec] = []
        var start = lower + unit.utf8CodeUnitCount
        while start <= upper {
            var end = start
            while end < upper, bytes[end] != UInt8(ascii: ",") { end += 1 }
            var first = start, last = end
            while first < last, isOWS(bytes[first]) { first += 1 }
            while last > first, isOWS(bytes[last - 1]) { last -= 1 }
            if first < last {
                guard let spec = parseSpec(UnsafeBufferPointer(rebasing: bytes[first..<last])) else { return nil }
                specs.append(spec)
            }
            start = end + 1
        }
        return specs.isEmpty ? nil : specs
    }

    /// `int-range` or `suffix-range`; `nil` for anything else.
    private static func parseSpec(_ bytes: UnsafeBufferPointer<UInt8>) -> Spec? {
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let before = UnsafeBufferPointer(rebasing: bytes[..<dash])
        let after = UnsafeBufferPointer(rebasing: bytes[(dash + 1)...])
        if before.isEmpty {
            guard let length = digits(after) else { return nil }
            return .suffix(length: length)
        }
        guard let first = digits(before) else { return nil }
        if after.isEmpty { return .int(first: first, last: nil) }
        guard let last = digits(after), last >= first else { return nil }
        return .int(first: first, last: last)
    }

    /// `1*DIGIT` as an `Int`, saturating at `Int.max`; `nil` when empty or not all digits.
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - 0x30))
            value = overflowTimes || overflowSum ? Int.max : sum
        }
        return value
    }

    @inline(__always)
    private static func isOWS(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
