import HTTPCaching
import MediaCore

/// An OAuth 2.0 bearer token taken from `Authorization: Bearer <token>` (RFC 6750 §2.1).
///
/// The token is never shown: `description`, `debugDescription` and reflection print
/// `BearerToken(<redacted>)`. It is deliberately not `Codable`. Store ``PartitionID``s, never tokens.
public struct BearerToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token text (`b64token`), for forwarding to the origin only.
    public let token: String

    /// Wraps a token already known to be valid `b64token`.
    /// - Throws: ``CredentialError/Code/missingToken`` or ``CredentialError/Code/malformedToken``.
    public init(token: String) throws(CredentialError) {
        guard !token.isEmpty else { throw CredentialError(.missingToken, "the bearer token is empty") }
        guard Self.isB64Token(token) else {
            throw CredentialError(.malformedToken, "the bearer token is not b64token ([A-Za-z0-9-._~+/]+=*)")
        }
        self.token = token
    }

    /// The `Authorization` value to send upstream: `Bearer <token>`.
    public var authorizationValue: String { "Bearer " + token }

    /// Parses one `Authorization` field value (RFC 6750 §2.1, RFC 9110 §11.4): the scheme
    /// `Bearer` in any case, exactly one SP, then a `b64token`.
    /// - Throws: ``CredentialError`` with code `empty-authorization`, `not-bearer`,
    ///   `missing-token`, `bad-separator` or `malformed-token`.
    public static func parse(authorization value: String) throws(CredentialError) -> BearerToken {
        // One pass over the UTF-8 view, no copy: the scheme compared ASCII case-insensitively (only ASCII letters
        // fold to "bearer"), then exactly one space before the token.
        let utf8 = value.utf8
        guard !utf8.isEmpty else { throw CredentialError(.emptyAuthorization, "the Authorization field is empty") }
        var index = utf8.startIndex
        var schemeCount = 0
        var isBearer = true
        while index != utf8.endIndex, utf8[index] != 0x20, utf8[index] != 0x09 {
            if schemeCount < Self.scheme.count {
                let byte = utf8[index]
                let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if folded != Self.scheme[schemeCount] { isBearer = false }
            }
            schemeCount += 1
            index = utf8.index(after: index)
        }
        guard isBearer, schemeCount == Self.scheme.count else {
            throw CredentialError(.notBearer, "the Authorization scheme is not Bearer")
        }
        let rest = utf8[index...]
        guard !rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { throw CredentialError(.missingToken, "Bearer without a token") }
        let second = rest.index(after: rest.startIndex)
        guard rest.first == 0x20, second != rest.endIndex, rest[second] != 0x20, rest[second] != 0x09 else {
            throw CredentialError(.badSeparator, "Bearer and the token must be separated by exactly one space")
        }
        return try BearerToken(token: String(Substring(rest[second...])))
    }

    /// `bearer`, the scheme's name in lower case (RFC 6750 §2.1; schemes compare case-insensitively, RFC 9110 §11.1).
    static let scheme = Array("bearer".utf8)

    /// The bearer token of a request's fields.
    /// - Returns: `nil` when there is no `Authorization` field.
    /// - Throws: ``CredentialError/Code/multipleAuthorization`` for more than one line, or what
    ///   ``parse(authorization:)`` throws.
    public static func from(_ fields: HTTPFields) throws(CredentialError) -> BearerToken? {
        let values = fields.values(for: .authorization)
        guard let value = values.first else { return nil }
        guard values.count == 1 else {
            throw CredentialError(.multipleAuthorization, "\(values.count) Authorization field lines")
        }
        return try parse(authorization: value)
    }

    /// Whether `text` is an RFC 6750 §2.1 `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    public static func isB64Token(_ text: String) -> Bool {
        var sawPadding = false, count = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                guard count > 0 else { return false }
                sawPadding = true
                continue
            }
            guard !sawPadding else { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                count += 1
            default:
                return false
            }
        }
        return count > 0
    }

    public var description: String { "BearerToken(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
