/// The normalised parameters of a derived image (a variant), the `transform` field of an audit record:
/// `[a-z0-9=,]{1,128}`, for example `w=144,fit=inside,fmt=jpeg,q=80` or
/// `w=288,h=288,fit=cover,fmt=webp,q=80`.
///
/// Only that alphabet is accepted so that no request text (a raw query string, a header, a token) can
/// reach the log as a transform: `&`, `?`, `%`, `:`, upper case, spaces and non-ASCII bytes are all
/// refused. The meaning of the parameters is the service's (MediaTransform's `VariantSpec`); the audit
/// log only carries the text.
public struct AuditTransform: AuditWord {
    /// The parameters, for example `w=144,fit=inside,fmt=jpeg,q=80`.
    public let rawValue: String

    /// `[a-z0-9=,]{1,128}`, else ``AuditError/Code/invalidTransform``.
    public static let syntax = AuditWordSyntax(
        lengths: 1...128, bytes: [0x61...0x7a, 0x30...0x39, 0x3d...0x3d, 0x2c...0x2c], code: .invalidTransform,
        expected: "expected [a-z0-9=,]{1,128}")

    public init(_ rawValue: String) throws { self.rawValue = try Self.syntax.check(rawValue) }
}
