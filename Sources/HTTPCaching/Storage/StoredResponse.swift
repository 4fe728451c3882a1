import MediaCore
/// A response held by a cache (RFC 9111 §3): what the service persists next to the body.
///
/// The parsed `Cache-Control`, `Date`, `Age`, `ETag` and `Last-Modified` are recomputed whenever
/// ``fields`` change, so serving decisions do not re-parse them.
public struct StoredResponse: Sendable, Hashable {
    /// The final status code, e.g. 200.
    public var status: HTTPStatus
    /// The stored header fields (already filtered, see ``StoredFields/filter(_:role:)``).
    public var fields: HTTPFields { didSet { parsed = Parsed(fields, targets: targets) } }
    /// When the request that produced this response was sent (`request_time`, §4.2.3).
    public var requestTime: EpochSeconds
    /// When the response was received (`response_time`, §4.2.3); reset by a 304 update.
    public var responseTime: EpochSeconds
    /// The method of the stored request; `"GET"` (HEAD responses are not stored, see ``Storability``).
    public var requestMethod: HTTPMethod
    /// The stored request's values of the fields nominated by `Vary` (§4.1).
    public var secondaryKey: SecondaryKey
    /// The targeted cache-control fields this cache honours, in order (RFC 9213, e.g.
    /// `["CDN-Cache-Control"]`; see ``TargetedCacheControl``); empty: none. Default: empty.
    public var targets: [String] { didSet { parsed = Parsed(fields, targets: targets) } }

    /// Values parsed from ``fields``.
    public private(set) var parsed: Parsed

    /// - Parameters:
    ///   - status: the final status.
    ///   - fields: the header fields to keep.
    ///   - requestTime: seconds since the epoch when the request was sent.
    ///   - responseTime: seconds since the epoch when the response arrived.
    ///   - requestMethod: default `"GET"`.
    ///   - secondaryKey: default ``SecondaryKey/empty`` (no `Vary`).
    ///   - targets: the targeted cache-control fields honoured (RFC 9213); default none.
    public init(
        status: HTTPStatus, fields: HTTPFields, requestTime: EpochSeconds, responseTime: EpochSeconds,
        requestMethod: HTTPMethod = "GET", secondaryKey: SecondaryKey = .empty, targets: [String] = []
    ) {
        self.init(status: status, fields: fields, requestTime: requestTime, responseTime: responseTime,
                  requestMethod: requestMethod, secondaryKey: secondaryKey, targets: targets,
                  parsed: Parsed(fields, targets: targets))
    }

    /// Creates a stored response whose `parsed` fields the caller already computed from `fields`.
    init(status: HTTPStatus, fields: HTTPFields, requestTime: EpochSeconds, responseTime: EpochSeconds,
         requestMethod: HTTPMethod, secondaryKey: SecondaryKey, targets: [String] = [], parsed: Parsed) {
        self.status = status
        self.fields = fields
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.requestMethod = requestMethod
        self.secondaryKey = secondaryKey
        self.targets = targets
        self.parsed = parsed
    }

    /// Values parsed once from the stored fields.
    public struct Parsed: Sendable, Hashable {
        /// The directives that govern this cache: the targeted field's when one applies (RFC 9213 §2.1),
        /// else `Cache-Control`.
        public var cacheControl: CacheControl
        /// Whether ``cacheControl`` came from a targeted field (then `Cache-Control` and `Expires` are ignored).
        public var isTargeted: Bool
        /// `Date`, or `nil` when absent or invalid.
        public var date: EpochSeconds?
        /// `Age`, or `nil` when absent or invalid.
        public var age: Int64?
        /// `ETag`, or `nil` when absent or malformed.
        public var entityTag: EntityTag?
        /// `Last-Modified`, or `nil` when absent or invalid.
        public var lastModified: EpochSeconds?
        /// The raw `Last-Modified` value, sent back in `If-Modified-Since`.
        public var lastModifiedText: String?
        /// `Expires` (§5.3).
        public var expires: Freshness.ExpiresValue
        /// The request fields nominated by `Vary` (lower-cased, sorted), or `nil` for `Vary: *`.
        public var varyFieldNames: [String]?

        init(_ fields: HTTPFields, targets: [String] = []) {
            let targeted = targets.isEmpty ? nil : TargetedCacheControl.select(fields, targets: targets)
            self.init(fields, cacheControl: targeted, isTargeted: targeted != nil)
        }

        /// Parses `fields`, reusing `cacheControl` when the caller already parsed the effective directives
        /// from these fields (`isTargeted`: they are a targeted field's, RFC 9213 §2.1).
        init(_ fields: HTTPFields, cacheControl parsedCacheControl: CacheControl?, isTargeted: Bool = false) {
            self.isTargeted = parsedCacheControl != nil && isTargeted
            cacheControl = parsedCacheControl ?? CacheControl(fields: fields)
            date = fields.firstValue(for: .date).flatMap { HTTPDate.parse($0) }
            age = AgeField.parse(fields)
            entityTag = fields.firstValue(for: .eTag).flatMap { EntityTag($0) }
            lastModifiedText = fields.firstValue(for: .lastModified)
            lastModified = lastModifiedText.flatMap { HTTPDate.parse($0) }
            expires = self.isTargeted ? .absent : Freshness.ExpiresValue(fields)
            varyFieldNames = Vary.fieldNames(of: fields)
        }
    }

    /// Whether this stored response may be selected for `request` (§4.1): it answers GET (and so HEAD),
    /// its `Vary` has no `*`, its ``secondaryKey`` nominates exactly the fields its `Vary` names
    /// (a key that does not cover `Vary` never matches) and every nominated value matches.
    public func matches(request: HTTPFields, digest: (String) -> String) -> Bool {
        guard requestMethod == .get, let names = parsed.varyFieldNames else { return false }
        if names.isEmpty && secondaryKey.entries.isEmpty { return true }
        guard names == secondaryKey.fieldNames else { return false }
        return Vary.matches(secondaryKey, request: request, digest: digest)
    }

    /// The freshness lifetime for `role` (§4.2.1); see ``Freshness/lifetime(status:fields:cacheControl:responseTime:role:configuration:)``.
    public func freshnessLifetime(role: CacheRole, configuration: Freshness.Configuration = Freshness.Configuration()) -> Int64 {
        Freshness.lifetime(status: status, cacheControl: parsed.cacheControl, date: parsed.date, expires: parsed.expires,
                           lastModified: parsed.lastModified, responseTime: responseTime, role: role,
                           configuration: configuration).seconds
    }

    /// The current age at `now` (§4.2.3), `0 ... 2147483648`.
    public func currentAge(now: EpochSeconds) -> Int64 {
        Freshness.currentAge(ageValue: parsed.age ?? 0, dateValue: parsed.date ?? responseTime,
                             requestTime: requestTime, responseTime: responseTime, now: now)
    }

    /// Whether the response is fresh at `now` for `role`: lifetime > current age (§4.2).
    public func isFresh(now: EpochSeconds, role: CacheRole, configuration: Freshness.Configuration = Freshness.Configuration()) -> Bool {
        freshnessLifetime(role: role, configuration: configuration) > currentAge(now: now)
    }

    /// The `Age` field value to send when serving at `now` (§5.1).
    public func ageFieldValue(now: EpochSeconds) -> String {
        AgeField.value(for: currentAge(now: now))
    }

    /// The fields to send when serving at `now`: the stored fields with `Age` set (§5.1, §4).
    public func servedFields(now: EpochSeconds) -> HTTPFields {
        var out = fields
        out.set(.age, ageFieldValue(now: now))
        return out
    }
}
