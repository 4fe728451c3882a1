/// The error of one domain: a stable ``code`` of that domain's code type plus a ``context`` for people, described as
/// `"<code>: <context>"`. Each domain names its own, e.g. `public typealias CryptoError = DomainError<CryptoErrorCode>`,
/// so `catch let error as CryptoError` catches that domain's errors only, and `CryptoError.Code` is its code type.
///
/// New codes may be added to a domain; switch over ``code`` with a `default` branch.
public struct DomainError<Code: ErrorCode>: CodedError {
    /// The stable reason code.
    public let code: Code
    /// What was wrong, for people. Never holds a credential, a secret, key material, body bytes or a private URL.
    public let context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }
}
