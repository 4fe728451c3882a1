/// The id of an encrypted-disk data key in an audit record (`keyId`): 16 lower-case hex digits, the 8 random bytes a
/// sealed file's header carries (docs/storage.md, "Data keys"). It names a key, never holds one.
public struct AuditKeyID: AuditWord {
    public let rawValue: String

    /// - Throws: ``AuditError/Code/invalidName`` unless `rawValue` is 16 characters of `[0-9a-f]`.
    public init(_ rawValue: String) throws {
        guard rawValue.utf8.count == 16, Self.isWord(rawValue, allowed: { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw AuditError(.invalidName, "a key id is 16 lower-case hex digits, got \(rawValue.utf8.count) bytes")
        }
        self.rawValue = rawValue
    }
}
