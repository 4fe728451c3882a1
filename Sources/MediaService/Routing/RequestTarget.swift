/// An origin-form request target (RFC 9112 §3.2.1), validated and decoded once.
///
/// An `http`/`https` absolute-form target (RFC 9112 §3.2.2, which a server MUST accept) is read as its
/// path and query; its authority is ignored, as `Host` is: a route's origin is fixed, clients never
/// choose the host.
///
/// Parsing refuses, with a ``RoutingError`` (status 400): an empty target, absolute-form targets of
/// other schemes or without a host, other non-origin forms, `.`/`..` segments (literal or encoded, also with a `;param` suffix
/// such as `..;`), empty segments (`//`) other
/// than a trailing slash, `%2F`, backslashes (literal or `%5C`), NUL and control characters
/// (literal or encoded), malformed percent-encoding, non-UTF-8 segments, characters that must be
/// encoded, and over-long paths or queries. The query is kept separate and undecoded.
public struct RequestTarget: Sendable, Hashable {
    /// Limits applied while parsing.
    public struct Configuration: Sendable, Hashable {
        /// Maximum length of the raw path (before `?`) in bytes. Default: 2,048.
        public var maxPathBytes: Int
        /// Maximum length of the raw query (after `?`) in bytes. Default: 2,048.
        public var maxQueryBytes: Int

        public init(maxPathBytes: Int = 2048, maxQueryBytes: Int = 2048) {
            self.maxPathBytes = maxPathBytes
            self.maxQueryBytes = maxQueryBytes
        }
    }

    /// The decoded path segments after the leading `/`; a trailing slash gives a last empty
    /// segment. `/a%20b/c/` → `["a b", "c", ""]`.
    public let segments: [String]
    /// The raw query without its `?`, still percent-encoded; `nil` when the target has no `?`.
    public let query: String?

    /// The decoded path, `"/" + segments.joined(separator: "/")`.
    public var path: String { "/" + segments.joined(separator: "/") }

    /// The path re-encoded (see ``encode(segment:)``), with the query appended after `?`.
    public var encoded: String {
        "/" + segments.map(Self.encode(segment:)).joined(separator: "/") + (query.map { "?" + $0 } ?? "")
    }

    /// Parses and validates a raw request target as received on the request line.
    /// - Throws: ``RoutingError`` with a request-target code (see ``RoutingError/Code``).
    public init(parsing raw: String, configuration: Configuration = Configuration()) throws(RoutingError) {
        var bytes = Array(raw.utf8)
        guard !bytes.isEmpty else { throw RoutingError(.emptyTarget, "the request target is empty") }
        if bytes[0] != UInt8(ascii: "/") {
            guard Self.hasScheme(bytes) else {
                throw RoutingError(.notOriginForm, "the request target does not start with /")
            }
            bytes = try Self.originForm(ofAbsolute: bytes)
        }
        let split = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let rawPath = bytes[..<split]
        guard rawPath.count <= configuration.maxPathBytes else {
            throw RoutingError(.pathTooLong, "the path has \(rawPath.count) bytes, over the limit of \(configuration.maxPathBytes)")
        }
        if split < bytes.count {
            let rawQuery = bytes[(split + 1)...]
            guard rawQuery.count <= configuration.maxQueryBytes else {
                throw RoutingError(.queryTooLong, "the query has \(rawQuery.count) bytes, over the limit of \(configuration.maxQueryBytes)")
            }
            try Self.checkQuery(rawQuery)
            query = String(decoding: rawQuery, as: UTF8.self)
        } else {
            query = nil
        }
        let rawSegments = rawPath.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var decoded: [String] = []
        decoded.reserveCapacity(rawSegments.count)
        for (index, rawSegment) in rawSegments.enumerated() {
            let segment = try Self.decode(segment: rawSegment)
            if segment.isEmpty && index != rawSegments.count - 1 {
                throw RoutingError(.emptySegment, "empty path segment at index \(index)")
            }
            // `..;x` counts too: servlet containers strip path parameters before resolving dots.
            if segment.utf8.first == UInt8(ascii: ".") {  // only then can the name be `.` or `..`
                let name = segment.prefix { $0 != ";" }
                if name == "." || name == ".." {
                    throw RoutingError(.dotSegment, "'\(name)' segment at index \(index)")
                }
            }
            decoded.append(segment)
        }
        segments = decoded
    }

    /// Creates a target from decoded segments that are already known to be valid (for mounts).
    init(segments: [String], query: String?) {
        self.segments = segments
        self.query = query
    }

    /// Whether `bytes` start with `scheme:` (RFC 3986 §3.1).
    /// The path and query of an absolute-form target (RFC 9112 §3.2.2): `http://host/a?b` → `/a?b`,
    /// `http://host` → `/`, `http://host?b` → `/?b`.
    /// - Throws: ``RoutingError`` `absolute-form` for a scheme other than http/https or an empty host.
    static func originForm(ofAbsolute bytes: [UInt8]) throws(RoutingError) -> [UInt8] {
        let text = String(decoding: bytes.prefix(8), as: UTF8.self).lowercased()
        let schemeLength = text.hasPrefix("http://") ? 7 : text.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else {
            throw RoutingError(.absoluteForm, "only http and https absolute-form targets are accepted")
        }
        let rest = bytes[schemeLength...]
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        guard authorityEnd > rest.startIndex else {
            throw RoutingError(.absoluteForm, "the absolute-form target has no host")
        }
        let remainder = bytes[authorityEnd...]
        if remainder.first == UInt8(ascii: "/") { return Array(remainder) }
        return [UInt8(ascii: "/")] + remainder
    }

    static func hasScheme(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        return bytes[..<colon].allSatisfy { isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
            && isAlpha(bytes[0])
    }

    static func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
