import MediaCore
/// The `Age` response field (RFC 9111 §5.1): `Age = delta-seconds`.
public enum AgeField {
    /// The `Age` value of `fields`, or `nil` when absent or invalid (a recipient ignores an invalid
    /// value, §5.1). Only the first field line is read, and of a list (`7200, 0`) only its first member
    /// (§5.1: a cache that sees a list-based `Age` uses the first member and discards the rest; empty
    /// members do not count, RFC 9110 §5.6.1); a sign, a fraction or an empty value is invalid. Values
    /// above 2,147,483,648 are 2,147,483,648 (§1.2.2).
    public static func parse(_ fields: HTTPFields) -> Int64? {
        guard let first = fields.firstValue(for: .age) else { return nil }
        return parse(first)
    }

    /// Parses one `Age` field value; see ``parse(_:)-(HTTPFields)``.
    public static func parse(_ value: String) -> Int64? {
        let member = value.split(separator: ",", omittingEmptySubsequences: false)
            .first { !HTTPFieldList.trimOWS($0).isEmpty } ?? value[...]
        let trimmed = HTTPFieldList.trimOWS(member)
        guard !trimmed.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in trimmed.utf8 {
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            if result < maximumDeltaSeconds { result = result * 10 + Int64(digit) }
        }
        return min(result, maximumDeltaSeconds)
    }

    /// The `Age` field value to send with a served response: `currentAge` clamped to
    /// `0 ... 2147483648` (§5.1: a cache whose age calculation overflows sends 2147483648).
    public static func value(for currentAge: Int64) -> String {
        String(currentAge.clampedDeltaSeconds)
    }
}
