/// Why a value is invalid, as a phrase that completes `invalid --option 'VALUE': <reason>`.
struct ReasonError: Error, Hashable, Sendable, ExpressibleByStringLiteral {
    let reason: String

    init(_ reason: String) { self.reason = reason }
    init(stringLiteral value: String) { self.reason = value }
}
