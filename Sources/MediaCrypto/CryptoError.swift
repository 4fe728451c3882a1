import MediaCore

/// An error thrown by ``MediaCrypto``: a stable ``code`` plus a human-readable context.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct CryptoError: CodedError {
    /// The stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// AES-GCM tag verification failed: wrong key, wrong associated data, or tampered bytes.
        public static let authenticationFailure = Code("authentication-failure")
        /// An input had the wrong size or shape (key, nonce, sealed box).
        public static let invalidInput = Code("invalid-input")
        /// The key was zeroed with ``SymmetricKey/destroy()`` and can no longer be used.
        public static let keyDestroyed = Code("key-destroyed")
        /// OpenSSL reported a failure it should not (allocation, RNG).
        public static let openSSLFailure = Code("openssl-failure")
    }

    /// The stable error code.
    public let code: Code
    /// What failed, for people. Never contains key material or plaintext.
    public let context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }
}
