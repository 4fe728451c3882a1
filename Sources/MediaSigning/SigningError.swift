import MediaCore

/// Why ``URLSigner`` refused to sign: a stable ``code`` plus a context that never contains the secret.
public typealias SigningError = DomainError<SigningErrorCode>

/// The stable codes of ``SigningError``.
public struct SigningErrorCode: ErrorCode {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The key id is not 1–32 of `[A-Za-z0-9._-]`.
    public static let invalidKeyID = Self(rawValue: "invalid-key-id")
    /// The secret is shorter than 32 bytes.
    public static let shortSecret = Self(rawValue: "short-secret")
    /// The subject is not 1–128 of `[A-Za-z0-9._-]`.
    public static let invalidSubject = Self(rawValue: "invalid-subject")
    /// The path does not start with `/`, has a `?` or `#`, or is not in canonical form.
    public static let invalidPath = Self(rawValue: "invalid-path")
    /// The query names `exp`, `sub`, `kid` or `sig`, has an empty parameter, or a `#`.
    public static let invalidQuery = Self(rawValue: "invalid-query")
    /// The expiry is negative.
    public static let invalidExpiry = Self(rawValue: "invalid-expiry")
}
