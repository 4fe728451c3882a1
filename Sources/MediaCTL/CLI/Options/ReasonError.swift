/// Why a value is invalid, as a phrase that completes `invalid --option 'VALUE': <reason>`.
public struct ReasonError: Error, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The phrase, such as `expected HOST:PORT`.
    public let reason: String

    public init(_ reason: String) { self.reason = reason }
    public init(stringLiteral value: String) { self.reason = value }
}
