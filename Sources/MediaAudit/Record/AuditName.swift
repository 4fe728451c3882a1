/// A tier or route name in an audit record: `[A-Za-z0-9._-]{1,64}` (the names of the policy files).
public struct AuditName: AuditWord {
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
        isWord(text) { byte in
            switch byte {
            case 0x61...0x7a, 0x41...0x5a, 0x30...0x39, 0x2e, 0x5f, 0x2d: true
            default: false
            }
        }
    }
}
