import MediaCore

/// Why ``URLSigner`` refused to sign: a stable ``code`` plus a context that never contains the secret.
public struct SigningError: CodedError {
    /// A stable reason code.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The key id is not 1–32 of `[A-Za-z0-9._-]`.
        public static let invalidKeyID = Code(rawValue: "invalid-key-id")
        /// The secret is shorter than 32 bytes.
        public static let shortSecret = Code(rawValue: "short-secret")
        /// The subject is not 1–128 of `[A-Za-z0-9._-]`.
        public static let invalidSubject = Code(rawValue: "invalid-subject")
        /// The path does not start with `/`, has a `?` or `#`, or is not in canonical form.
        public static let invalidPath = Code(rawValue: "invalid-path")
        /// The query names `exp`, `sub`, `kid` or `sig`, has an empty parameter, or a `#`.
        public static let invalidQuery = Code(rawValue: "invalid-query")
        /// The expiry is negative.
        public static let invalidExpiry = Code(rawValue: "invalid-expiry")
    }

    public let code: Code
    public let context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }
}
