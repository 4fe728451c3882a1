import Foundation

/// The `url` field of an audit record: `scheme://host[:port]/path` of an origin URL with the userinfo,
/// query string and fragment removed.
///
/// Only for tiers whose policy allows URLs in the log, and never on a partitioned record: ``AuditScope``
/// can carry a URL only in its `shared` case. The kept text is limited to RFC 3986 characters
/// (`A–Z a–z 0–9 - . _ ~ : / [ ] @ ! $ & ' ( ) * + , ; = %`), so it never needs JSON escaping.
public struct AuditURL: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The reduced URL, for example `https://img.example/catalog/a.jpg`.
    public let rawValue: String

    /// Maximum length of the reduced URL in bytes: 2,048.
    public static let maximumLength = 2048

    /// Parses `string` and keeps only scheme, host, port and path.
    /// - Throws: ``AuditError/Code/invalidURL`` when `string` is not an absolute `http`/`https` URL with a
    ///   host, when the reduced URL is longer than ``maximumLength`` or contains a character outside RFC 3986.
    public init(_ string: String) throws {
        // Plain `http(s)://host[:port]/path[?query][#fragment]` URLs are reduced without Foundation
        // (`AuditURL+Reduce.swift`); anything else takes the `URLComponents` path.
        try self.init(reduced: try Self.reducedQuickly(string) ?? Self.reducedByURLComponents(string))
    }

    /// scheme://host[:port]/path of `string` through `URLComponents`.
    static func reducedByURLComponents(_ string: String) throws -> String {
        guard let components = URLComponents(string: string),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = components.percentEncodedHost, !host.isEmpty
        else {
            throw AuditError(.invalidURL, "expected an absolute http or https URL with a host")
        }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        var reduced = "\(scheme)://\(host.lowercased())"
        if let port = components.port { reduced += ":\(port)" }
        let path = components.percentEncodedPath
        reduced += path.isEmpty ? "/" : path
        return reduced
    }

    /// Validates an already reduced URL (as read back from a log line).
    init(reduced: String) throws {
        guard reduced.utf8.count <= Self.maximumLength else {
            throw AuditError(.invalidURL, "the URL without query is longer than \(Self.maximumLength) bytes")
        }
        // Byte checks (the same verdict as `hasPrefix` on characters: any non-ASCII byte is refused anyway).
        var text = reduced
        let acceptable = text.withUTF8 { bytes -> Bool in
            guard bytes.starts(with: "http://".utf8) || bytes.starts(with: "https://".utf8) else { return false }
            for byte in bytes where !Self.isAllowed(byte) { return false }
            return true
        }
        guard acceptable else {
            throw AuditError(.invalidURL, "the URL contains characters outside RFC 3986 or has no http(s) scheme")
        }
        self.rawValue = reduced
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
             UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(reduced: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
