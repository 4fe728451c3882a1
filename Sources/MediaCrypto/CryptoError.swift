import MediaCore

/// An error thrown by ``MediaCrypto``: a stable ``code`` plus a human-readable context
/// that never contains key material or plaintext.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public typealias CryptoError = DomainError<CryptoErrorCode>

/// The stable codes of ``CryptoError``.
public struct CryptoErrorCode: ErrorCode {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }

    /// AES-GCM tag verification failed: wrong key, wrong associated data, or tampered bytes.
    public static let authenticationFailure = Self("authentication-failure")
    /// An input had the wrong size or shape (key, nonce, sealed box).
    public static let invalidInput = Self("invalid-input")
    /// The key was zeroed with ``SymmetricKey/destroy()`` and can no longer be used.
    public static let keyDestroyed = Self("key-destroyed")
    /// OpenSSL reported a failure it should not (allocation, RNG).
    public static let openSSLFailure = Self("openssl-failure")
}
