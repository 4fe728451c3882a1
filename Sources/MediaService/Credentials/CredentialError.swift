import MediaCore

/// Why an `Authorization` field was refused: a stable ``code`` plus a context that never
/// contains the token or the field value.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public typealias CredentialError = DomainError<CredentialErrorCode>

/// The stable codes of ``CredentialError``.
public struct CredentialErrorCode: ErrorCode {
    public let rawValue: String
    /// A code from its stable string, e.g. `"malformed-token"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The field is present but empty.
    public static let emptyAuthorization = Self(rawValue: "empty-authorization")
    /// The scheme is not `Bearer` (e.g. `Basic`).
    public static let notBearer = Self(rawValue: "not-bearer")
    /// `Bearer` with no token.
    public static let missingToken = Self(rawValue: "missing-token")
    /// The scheme and the token are not separated by exactly one space.
    public static let badSeparator = Self(rawValue: "bad-separator")
    /// The token is not RFC 6750 §2.1 `b64token` (`[A-Za-z0-9-._~+/]+=*`).
    public static let malformedToken = Self(rawValue: "malformed-token")
    /// More than one `Authorization` field line.
    public static let multipleAuthorization = Self(rawValue: "multiple-authorization")
}
