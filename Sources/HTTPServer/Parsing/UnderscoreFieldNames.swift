import Synchronization

/// The field names containing `_` that a parser lets through; every other such name is refused with
/// `400 invalid-field-name` (docs/http-server.md, "Field names with `_`").
///
/// CGI, WSGI, PHP and Rack origins read `X_Forwarded_Host` and `X-Forwarded-Host` alike, as
/// `HTTP_X_FORWARDED_HOST`, so a name with `_` slips past filters that drop the `-` spelling. nginx drops such
/// names by default (`underscores_in_headers off`) for the same reason; mediactl refuses the request, which a
/// client sees, instead of passing it on without the field.
///
/// One instance is shared by every connection of a server and may be replaced while it runs (`mediactl serve`
/// puts the names its tiers forward here, and again after each policy reload). Equality is identity.
public final class UnderscoreFieldNames: Sendable, Hashable {
    private let names: Mutex<Set<String>>

    /// Allows `names` (compared ignoring ASCII case).
    public init(_ names: some Sequence<String> = [String]()) {
        self.names = Mutex(Set(names.map { $0.lowercased() }))
    }

    /// Replaces the allowed names.
    public func replace(with names: some Sequence<String>) {
        let lowered = Set(names.map { $0.lowercased() })
        self.names.withLock { $0 = lowered }
    }

    /// The allowed names, lower case.
    public var allowed: Set<String> { names.withLock { $0 } }

    /// Whether the token `name` (ASCII bytes) is allowed.
    func allows(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = String(decoding: name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return names.withLock { $0.contains(lowered) }
    }

    public static func == (lhs: UnderscoreFieldNames, rhs: UnderscoreFieldNames) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
