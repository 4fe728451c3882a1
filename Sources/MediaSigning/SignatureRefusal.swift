import MediaCore

/// Why a signed URL was refused: `403` problem+json with a stable ``code`` and a ``detail`` that never says
/// which part of a well-formed signature was wrong, nor contains a secret, a signature or a subject.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct SignatureRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason code.
    public struct Code: ErrorCode {
        public let rawValue: String
        /// A code from its stable string, e.g. `"signature-expired"`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A parameter is missing, repeated or badly formed, or the path is not in canonical form.
        public static let malformed = Code(rawValue: "signature-malformed")
        /// `kid` names no key of the tier's keys file.
        public static let unknownKeyID = Code(rawValue: "unknown-key-id")
        /// `sig` is not the HMAC of the signing string under the key (or the route accepts no signed URLs).
        public static let invalid = Code(rawValue: "signature-invalid")
        /// `exp` is not in the future.
        public static let expired = Code(rawValue: "signature-expired")
        /// `exp` is more than the tier's `maxLifetime` (plus 30 s of clock skew) ahead.
        public static let lifetimeTooLong = Code(rawValue: "signature-lifetime-too-long")

        /// Every code, in the order verification checks them.
        public static let all: [Code] = [malformed, unknownKeyID, invalid, expired, lifetimeTooLong]
    }

    /// The stable reason code.
    public let code: Code
    /// What was refused, for people.
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
