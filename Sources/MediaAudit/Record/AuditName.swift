/// A tier or route name in an audit record: `[A-Za-z0-9._-]{1,64}` (the names of the policy files).
public struct AuditName: AuditWord {
    /// The name, for example `public` or `receipts`.
    public let rawValue: String

    /// `[A-Za-z0-9._-]{1,64}`, else ``AuditError/Code/invalidName``.
    public static let syntax = AuditWordSyntax(
        lengths: 1...64, bytes: [0x61...0x7a, 0x41...0x5a, 0x30...0x39, 0x2e...0x2e, 0x5f...0x5f, 0x2d...0x2d],
        code: .invalidName, expected: "expected [A-Za-z0-9._-]{1,64}")

    public init(_ rawValue: String) throws { self.rawValue = try Self.syntax.check(rawValue) }
}
