import MediaCore

/// Why an `Authorization` field was refused: a stable ``code`` plus a context that never
/// contains the credential.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct CredentialError: CodedError {
    /// A stable reason code.
    public struct Code: ErrorCode {
        public let rawValue: String
        /// A code from its stable string, e.g. `"malformed-token"`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The field is present but empty.
        public static let emptyAuthorization = Code(rawValue: "empty-authorization")
        /// The scheme is not `Bearer` (e.g. `Basic`).
        public static let notBearer = Code(rawValue: "not-bearer")
        /// `Bearer` with no token.
        public static let missingToken = Code(rawValue: "missing-token")
        /// The scheme and the token are not separated by exactly one space.
        public static let badSeparator = Code(rawValue: "bad-separator")
        /// The token is not RFC 6750 §2.1 `b64token` (`[A-Za-z0-9-._~+/]+=*`).
        public static let malformedToken = Code(rawValue: "malformed-token")
        /// More than one `Authorization` field line.
        public static let multipleAuthorization = Code(rawValue: "multiple-authorization")
    }

    /// The stable reason code.
    public let code: Code
    /// What was wrong, for people. Never contains the token or the field value.
    public let context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }
}
