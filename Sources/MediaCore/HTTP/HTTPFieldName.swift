/// An HTTP field name (RFC 9110 §5.1): the name as written, which is what goes on the wire, compared and hashed
/// ASCII case-insensitively.
///
/// The names mediactl uses are static members (`.cacheControl`, `.vary`, … in `HTTPFieldName+Registered.swift`);
/// a string literal is a name too, so `fields["x-custom"]` reads the same as `fields[HTTPFieldName("X-Custom")]`.
/// The shape follows swift-http-types' `HTTPField.Name`: ``rawName`` as given, ``canonicalName`` in lowercase.
public struct HTTPFieldName: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as written (case preserved), e.g. `"Cache-Control"`; sent on the wire as is.
    public let rawName: String

    /// Creates a name from its spelling. No validation: the parser and the curl transport refuse names that are
    /// not tokens (RFC 9110 §5.6.2) before they become field lines.
    @inlinable public init(_ rawName: String) {
        self.rawName = rawName
    }

    @inlinable public init(stringLiteral value: String) {
        rawName = value
    }

    /// The canonical form: ``rawName`` with ASCII letters lowercased, e.g. `"cache-control"`.
    public var canonicalName: String {
        String(decoding: rawName.utf8.map(HTTPFields.lowerASCII), as: UTF8.self)
    }

    public var description: String { rawName }

    /// Whether two names are equal ignoring ASCII case.
    public static func == (lhs: HTTPFieldName, rhs: HTTPFieldName) -> Bool {
        HTTPFields.namesEqual(lhs.rawName, rhs.rawName)
    }

    /// Hashes the canonical form, so equal names hash alike.
    public func hash(into hasher: inout Hasher) {
        for byte in rawName.utf8 { hasher.combine(HTTPFields.lowerASCII(byte)) }
    }
}
