/// A stable reason code: the kebab-case token (`"malformed-token"`, `"unknown-route"`) that problem details, the
/// audit log, tests and operators match on. Each error type declares its codes as static members of its own
/// code struct conforming to this (`CryptoErrorCode`, reached as `CryptoError.Code`), so codes of different errors
/// never mix; new codes may be added, so a `switch` over one needs a `default` branch.
public protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The stable token, e.g. `"malformed-token"`.
    var rawValue: String { get }
}

extension ErrorCode {
    /// ``rawValue``.
    public var description: String { rawValue }
}

/// An error with a stable ``code`` and a ``context`` for people, described as `"<code>: <context>"`.
///
/// The context never holds a credential, a secret or a private URL: errors reach logs and problem details.
public protocol CodedError: Error, Hashable, Sendable, CustomStringConvertible {
    associatedtype Code: ErrorCode
    /// The stable reason code.
    var code: Code { get }
    /// What was wrong, for people.
    var context: String { get }
}

extension CodedError {
    /// `"<code>: <context>"`, e.g. `"unknown-route: no route named x"`.
    public var description: String { "\(code): \(context)" }
}
