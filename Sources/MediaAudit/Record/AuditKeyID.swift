/// The id of an encrypted-disk data key in an audit record (`keyId`): 16 lower-case hex digits, the 8 random bytes a
/// sealed file's header carries (docs/storage.md, "Data keys"). It names a key, never holds one.
public struct AuditKeyID: AuditWord {
    public let rawValue: String

    /// 16 characters of `[0-9a-f]`, else ``AuditError/Code/invalidName``.
    public static let syntax = AuditWordSyntax(
        lengths: 16...16, bytes: [0x30...0x39, 0x61...0x66], code: .invalidName,
        expected: "a key id is 16 lower-case hex digits")

    public init(_ rawValue: String) throws { self.rawValue = try Self.syntax.check(rawValue) }
}
