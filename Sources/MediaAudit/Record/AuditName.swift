/// A tier or route name in an audit record: `[A-Za-z0-9._-]{1,64}` (the names of the policy files).
public struct AuditName: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The name, for example `public` or `receipts`.
    public let rawValue: String

    /// Validates `rawValue`.
    /// - Throws: ``AuditError/Code/invalidName`` unless it matches `[A-Za-z0-9._-]{1,64}`.
    public init(_ rawValue: String) throws {
        guard Self.isValid(rawValue) else {
            throw AuditError(.invalidName, "expected [A-Za-z0-9._-]{1,64}, got \(rawValue.utf8.count) bytes")
        }
        self.rawValue = rawValue
    }

    static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.allSatisfy {
            (0x61...0x7a).contains($0) || (0x41...0x5a).contains($0) || (0x30...0x39).contains($0)
                || $0 == 0x2e || $0 == 0x5f || $0 == 0x2d
        }
    }

    public var description: String { rawValue }
    public static func < (lhs: AuditName, rhs: AuditName) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
