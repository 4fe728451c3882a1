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
        guard (1...64).contains(text.utf8.count) else { return false }
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 0x61...0x7a, 0x41...0x5a, 0x30...0x39, 0x2e, 0x5f, 0x2d: continue
                default: return false
                }
            }
            return true
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
