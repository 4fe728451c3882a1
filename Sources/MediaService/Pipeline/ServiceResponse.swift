import HTTPCaching
import MediaCore

/// The service's answer: status, header fields and body, plus what the cache did (for `demo`,
/// `fetch --json` and tests; never sent on the wire except through `Cache-Status`).
public struct ServiceResponse: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// The header fields to send.
    public var fields: HTTPFields
    /// The body as sent: a buffer or a range of one (a `206` of a stored image shares the stored image's buffer
    /// instead of copying the part: hardening item 3), and the stored entry that keeps it shared (`StoredEntry.owner`).
    public var content: ResponseBody
    /// The body (empty for HEAD and 304; the fields still give its `Content-Length`). A copy when the content is a
    /// range; setting it replaces the content.
    public var body: [UInt8] {
        get { content.bytes }
        set { content.bytes = newValue }
    }
    /// The body's length in bytes, without copying.
    public var bodyCount: Int { content.count }
    /// What the cache did.
    public var outcome: ServiceOutcome

    public init(status: HTTPStatus, fields: HTTPFields, body: [UInt8], outcome: ServiceOutcome) {
        self.status = status
        self.fields = fields
        content = ResponseBody(body)
        self.outcome = outcome
    }

    /// A response whose body is `range` of `storage`, shared, not copied.
    public init(status: HTTPStatus, fields: HTTPFields, storage: [UInt8], range: Range<Int>, outcome: ServiceOutcome) {
        self.status = status
        self.fields = fields
        content = ResponseBody(storage: storage, range: range)
        self.outcome = outcome
    }
}

extension ServiceResponse {
    /// This response with its body dropped when `method` is `HEAD` (fields unchanged).
    func withoutBody(for method: HTTPMethod) -> ServiceResponse {
        guard method == .head, bodyCount != 0 else { return self }
        var response = self
        response.body = []
        return response
    }
}

/// What the cache did for one request.
public struct ServiceOutcome: Sendable, Hashable, Codable {
    /// The matched route, or `nil` (no route, health, metrics).
    public var route: String?
    /// The route's tier, or `nil`.
    public var tier: String?
    /// The `Cache-Status` value sent (RFC 9211), or `nil`.
    public var cacheStatus: String?
    /// Where the answer came from (``Provenance``): stored in a class (`disk`, `encrypted-disk`, `memory`), not
    /// stored (`none`), served from storage (`hit`) or another request's exchange (`collapsed`); `nil` when no
    /// decision was made.
    public var storage: Provenance?
    /// The stable reason code of the storage decision or of the refusal.
    public var reason: String?
    /// A derived image's normalised parameters (`w=144,fit=inside,fmt=jpeg,q=80`), or `nil` for an original.
    public var variant: String?
    /// A derived image's source: hex SHA-256 of the source's store key (the audit `derivedFrom`), or `nil`.
    public var derivedFrom: String?
    /// The request's partition on a partitioned tier: the hex keyed digest of its credential (as in audit
    /// records), never the credential; `nil` on other tiers and before admission.
    public var partition: String?

    public init(route: String? = nil, tier: String? = nil, cacheStatus: String? = nil, storage: Provenance? = nil,
                reason: String? = nil, variant: String? = nil, derivedFrom: String? = nil, partition: String? = nil) {
        self.route = route
        self.tier = tier
        self.cacheStatus = cacheStatus
        self.storage = storage
        self.reason = reason
        self.variant = variant
        self.derivedFrom = derivedFrom
        self.partition = partition
    }
}
