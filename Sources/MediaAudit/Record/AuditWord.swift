/// A restricted word of an audit record (``AuditName``, ``ReasonCode``): 1 to 64 bytes of an allowed set,
/// checked when made and when decoded, ordered and encoded as its text. Free text never reaches the log this way.
public protocol AuditWord: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The word.
    var rawValue: String { get }
    /// Validates `rawValue`.
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

    /// Whether `text` is 1 to 64 bytes, each `allowed`.
    static func isWord(_ text: String, allowed: (UInt8) -> Bool) -> Bool {
        guard (1...64).contains(text.utf8.count) else { return false }
        var text = text
        return text.withUTF8 { $0.allSatisfy(allowed) }
    }
}
