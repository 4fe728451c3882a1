/// The normalised parameters of a derived image (a variant), the `transform` field of an audit record:
/// `[a-z0-9=,]{1,128}`, for example `w=144,fit=inside,fmt=jpeg,q=80` or
/// `w=288,h=288,fit=cover,fmt=webp,q=80`.
///
/// Only that alphabet is accepted so that no request text (a raw query string, a header, a token) can
/// reach the log as a transform: `&`, `?`, `%`, `:`, upper case, spaces and non-ASCII bytes are all
/// refused. The meaning of the parameters is the service's (MediaTransform's `VariantSpec`); the audit
/// log only carries the text.
public struct AuditTransform: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// Longest accepted text, in bytes.
    public static let maxBytes = 128

    /// The parameters, for example `w=144,fit=inside,fmt=jpeg,q=80`.
    public let rawValue: String

    /// Validates `rawValue`.
    /// - Throws: ``AuditError/Code/invalidTransform`` unless it matches `[a-z0-9=,]{1,128}` (the context
    ///   states only the length, never the refused text).
    public init(_ rawValue: String) throws {
        guard Self.isValid(rawValue) else {
            throw AuditError(.invalidTransform, "expected [a-z0-9=,]{1,128}, got \(rawValue.utf8.count) bytes")
        }
        self.rawValue = rawValue
    }

    static func isValid(_ text: String) -> Bool {
        guard (1...maxBytes).contains(text.utf8.count) else { return false }
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 0x61...0x7a, 0x30...0x39, 0x3d, 0x2c: continue
                default: return false
                }
            }
            return true
        }
    }

    public var description: String { rawValue }
    public static func < (lhs: AuditTransform, rhs: AuditTransform) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
