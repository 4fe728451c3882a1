import MediaCore
/// The parsed `Cache-Control` directives of a request or a response (RFC 9111 §5.2), plus
/// `immutable` (RFC 8246), `stale-while-revalidate` and `stale-if-error` (RFC 5861).
///
/// One type serves both directions; each property says where it applies. Parsing rules
/// (RFC 9111 §1.2.2, §4.2.1, §5.2):
/// - directive names are case-insensitive; unknown directives are ignored;
/// - arguments are accepted in token and quoted-string form (`max-age="60"` is 60);
/// - delta-seconds are non-negative decimal integers; larger than 2,147,483,648 → 2,147,483,648;
/// - an invalid or negative `max-age`/`s-maxage` (`max-age=-1`, `max-age=abc`, `max-age`) is 0:
///   the response is stale (§4.2.1 encourages treating invalid freshness information as stale);
/// - a duplicated `max-age`/`s-maxage` whose occurrences disagree is 0 (stale) — so
///   `max-age=0, max-age=300` never gives 300; other duplicated directives keep the first value;
/// - an invalid `max-stale`, `min-fresh`, `stale-while-revalidate` or `stale-if-error` argument
///   is ignored (the directive is treated as absent, which never widens reuse);
/// - `no-cache` and `private` with an argument are the qualified forms: the argument is a list of
///   field names (lower-cased here); an empty list counts as the unqualified form.
public struct CacheControl: Sendable, Hashable {
    /// `max-age` (request §5.2.1.1, response §5.2.2.1), in seconds; `nil` when absent.
    public var maxAge: Int64?
    /// `s-maxage` (response, §5.2.2.10), in seconds; `nil` when absent. Shared caches only.
    public var sharedMaxAge: Int64?
    /// `max-stale` (request, §5.2.1.2), in seconds; ``anyStaleness`` when it has no argument.
    public var maxStale: Int64?
    /// `min-fresh` (request, §5.2.1.3), in seconds.
    public var minFresh: Int64?
    /// Unqualified `no-cache` (request §5.2.1.4, response §5.2.2.4).
    public var noCache: Bool = false
    /// Field names of a qualified response `no-cache="…"` (lower-cased); they are not stored (§5.2.2.4).
    public var noCacheFieldNames: [String] = []
    /// `no-store` (request §5.2.1.5, response §5.2.2.5).
    public var noStore: Bool = false
    /// `no-transform` (§5.2.1.6, §5.2.2.6).
    public var noTransform: Bool = false
    /// `only-if-cached` (request, §5.2.1.7).
    public var onlyIfCached: Bool = false
    /// `must-revalidate` (response, §5.2.2.2).
    public var mustRevalidate: Bool = false
    /// `must-understand` (response, §5.2.2.3).
    public var mustUnderstand: Bool = false
    /// `proxy-revalidate` (response, §5.2.2.8).
    public var proxyRevalidate: Bool = false
    /// `public` (response, §5.2.2.9). When `private` is also present, ``isPrivate`` wins everywhere.
    public var isPublic: Bool = false
    /// Unqualified `private` (response, §5.2.2.7).
    public var isPrivate: Bool = false
    /// Field names of a qualified `private="…"` (lower-cased); a shared cache does not store them (§5.2.2.7).
    public var privateFieldNames: [String] = []
    /// `immutable` (response, RFC 8246).
    public var immutable: Bool = false
    /// `stale-while-revalidate` (response, RFC 5861 §3), in seconds.
    public var staleWhileRevalidate: Int64?
    /// `stale-if-error` (request or response, RFC 5861 §4), in seconds.
    public var staleIfError: Int64?

    /// The value of ``maxStale`` for `max-stale` without an argument: any staleness is accepted.
    public static let anyStaleness: Int64 = .max

    /// No directives.
    public init() {}

    /// Parses one field value, e.g. `public, max-age=31536000, immutable`. Never fails: see the
    /// type's rules for invalid input.
    /// - Complexity: O(n) in the UTF-8 length; allocates only for qualified field-name lists.
    public init(_ value: String) {
        self.init()
        var state = ParseState()
        parse(value, &state)
    }

    /// Parses every `Cache-Control` line of `fields` as one combined value (RFC 9110 §5.3),
    /// so duplicates across lines follow the same rules as within one line.
    public init(fields: HTTPFields) {
        self.init()
        var state = ParseState()
        for field in fields where HTTPFields.namesEqual(field.name, "cache-control") {
            parse(field.value, &state)
        }
    }

    /// Whether `fields` contain at least one `Cache-Control` line (relevant for `Pragma`, §5.4).
    public static func isPresent(in fields: HTTPFields) -> Bool {
        fields.contains(.cacheControl)
    }

    /// Tracks duplicates across lines.
    struct ParseState {
        var seenMaxAge = false
        var seenSharedMaxAge = false
    }
}
