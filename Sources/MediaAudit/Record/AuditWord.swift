/// A restricted word of an audit record (``AuditName``, ``ReasonCode``, ``AuditTransform``, ``AuditKeyID``): a few
/// bytes of an allowed set (its ``syntax``), checked when made and when decoded, ordered and encoded as its text. Free
/// text never reaches the log this way.
public protocol AuditWord: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The word.
    var rawValue: String { get }
    /// What the word may hold, and the error it throws otherwise.
    static var syntax: AuditWordSyntax { get }
    /// Validates `rawValue` against ``syntax``.
    init(_ rawValue: String) throws
}

extension AuditWord {
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether `text` is a valid word (``AuditWordSyntax/allows(_:)``).
    static func isValid(_ text: String) -> Bool { syntax.allows(text) }
}
