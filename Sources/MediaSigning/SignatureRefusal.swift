import MediaCore

/// Why a signed URL was refused: `403` problem+json with a stable ``code`` and a ``detail`` that never says
/// which part of a well-formed signature was wrong, nor contains a secret, a signature or a subject.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public typealias SignatureRefusal = DomainError<SignatureRefusalCode>

/// The stable codes of ``SignatureRefusal``.
public struct SignatureRefusalCode: ErrorCode {
    public let rawValue: String
    /// A code from its stable string, e.g. `"signature-expired"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A parameter is missing, repeated or badly formed, or the path is not in canonical form.
    public static let malformed = Self(rawValue: "signature-malformed")
    /// `kid` names no key of the tier's keys file.
    public static let unknownKeyID = Self(rawValue: "unknown-key-id")
    /// `sig` is not the HMAC of the signing string under the key (or the route accepts no signed URLs).
    public static let invalid = Self(rawValue: "signature-invalid")
    /// `exp` is not in the future.
    public static let expired = Self(rawValue: "signature-expired")
    /// `exp` is more than the tier's `maxLifetime` (plus 30 s of clock skew) ahead.
    public static let lifetimeTooLong = Self(rawValue: "signature-lifetime-too-long")

    /// Every code, in the order verification checks them.
    public static let all: [Self] = [malformed, unknownKeyID, invalid, expired, lifetimeTooLong]
}

extension SignatureRefusal {
    /// What was refused, for people (``context``): the problem's `detail`.
    public var detail: String { context }
}
