/// Whole numbers on the command line: decimal digits only (no sign, no spaces), within a range.
enum WholeNumber {
    /// A parser of `range`; its refusal reads `expected a whole number[ of UNIT] from LOW to HIGH`.
    static func parser(_ range: ClosedRange<Int>, unit: String?) -> @Sendable (String) -> Result<Int, ReasonError> {
        let reason = "expected a whole number" + (unit.map { " of " + $0 } ?? "")
            + " from \(range.lowerBound) to \(range.upperBound)"
        return { text in
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text),
                  range.contains(value)
            else { return .failure(ReasonError(reason)) }
            return .success(value)
        }
    }
}
