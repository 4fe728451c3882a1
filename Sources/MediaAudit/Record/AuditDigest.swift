import MediaCore
import MediaCrypto

/// A hex digest in an audit record (`key`, `partition`, `prev`, `hash`): exactly 64 lower-case hex
/// characters, i.e. 32 bytes such as a SHA-256 or HMAC-SHA256 output.
///
/// The narrow shape is the point: a credential, cookie, URL or body cannot be passed where a digest is
/// expected. Digest the secret first (for partitions, a keyed digest).
public struct AuditDigest: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The 64 lower-case hex characters.
    public let hex: String

    /// 64 zeros: the `prev` of the first record of a log.
    public static let zero = AuditDigest(uncheckedHex: String(repeating: "0", count: 64))

    /// Validates `hex`.
    /// - Throws: ``AuditError/Code/invalidDigest`` unless `hex` is exactly 64 characters of `[0-9a-f]`.
    public init(hex: String) throws {
        guard Self.isValid(hex) else {
            throw AuditError(.invalidDigest, "expected 64 lower-case hex characters, got \(hex.utf8.count) bytes")
        }
        self.hex = hex
    }

    /// Wraps a SHA-256 digest.
    public init(_ digest: SHA256Digest) { self.hex = digest.hex }

    /// Wraps 32 raw digest bytes (for example an HMAC-SHA256 output).
    /// - Throws: ``AuditError/Code/invalidDigest`` unless `bytes.count == 32`.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 32 else {
            throw AuditError(.invalidDigest, "expected 32 digest bytes, got \(bytes.count)")
        }
        self.hex = Hex.encode(bytes)
    }

    init(uncheckedHex: String) { self.hex = uncheckedHex }

    static func isValid(_ text: String) -> Bool {
        guard text.utf8.count == 64 else { return false }
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 0x30...0x39, 0x61...0x66: continue
                default: return false
                }
            }
            return true
        }
    }

    public var description: String { hex }
    public static func < (lhs: AuditDigest, rhs: AuditDigest) -> Bool { lhs.hex < rhs.hex }

    public init(from decoder: any Decoder) throws {
        try self.init(hex: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
