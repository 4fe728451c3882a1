import HTTPCaching
import MediaCore

/// Everything a storage decision may look at: the tier and route, facts about the request, the
/// response head, facts about the body, and the RFC 9111 storability verdict computed by the caller.
public struct StorageProposal: Sendable, Hashable {
    /// Request facts (never the credential itself).
    public struct Request: Sendable, Hashable {
        /// Whether the request carried a credential (`Authorization` or `Cookie`).
        public var hasCredential: Bool
        /// Whether the URL carries the tier's `versionParameter`.
        public var hasVersionParameter: Bool
        /// Whether the request sent to the origin asked for a range (`Range`, RFC 9110 §14.2). Default: `false`.
        public var isRangeRequest: Bool
        /// Whether a purge began after the request was admitted: its answer may belong to what the purge
        /// removed. Default: `false`.
        public var purgedDuringExchange: Bool

        public init(hasCredential: Bool = false, hasVersionParameter: Bool = false, isRangeRequest: Bool = false,
                    purgedDuringExchange: Bool = false) {
            self.hasCredential = hasCredential
            self.hasVersionParameter = hasVersionParameter
            self.isRangeRequest = isRangeRequest
            self.purgedDuringExchange = purgedDuringExchange
        }
    }

    /// The response head.
    public struct Response: Sendable, Hashable {
        /// Status code, e.g. 200.
        public var status: HTTPStatus
        /// The response header fields.
        public var fields: HTTPFields
        /// The response's current age when it would be stored (RFC 9111 §4.2.3: `Age` and the apparent age from
        /// `Date`), seconds: the tier's TTL cap counts it. Default: 0.
        public var currentAge: Int
        /// Whether the response as it would be stored sets a cookie: a `Set-Cookie` that no qualified `private` or
        /// `no-cache` keeps out of storage (RFC 9111 §5.2.2.4, §5.2.2.7). Default: `false`.
        public var setsCookie: Bool

        public init(status: HTTPStatus, fields: HTTPFields = HTTPFields(), currentAge: Int = 0, setsCookie: Bool = false) {
            self.status = status
            self.fields = fields
            self.currentAge = currentAge
            self.setsCookie = setsCookie
        }
    }

    /// Body facts, from validation (step 5 of the request flow).
    public struct Body: Sendable, Hashable {
        /// Body length, bytes.
        public var byteCount: Int
        /// The sniffed media type (e.g. `image/jpeg`), or `nil` when the bytes match no known format.
        public var format: String?
        /// Image width in pixels read from the header, or `nil` when unknown.
        public var pixelWidth: Int?
        /// Image height in pixels read from the header, or `nil` when unknown.
        public var pixelHeight: Int?

        public init(byteCount: Int, format: String? = nil, pixelWidth: Int? = nil, pixelHeight: Int? = nil) {
            self.byteCount = byteCount
            self.format = format
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
        }

        /// Width × height, `Int.max` on overflow, `nil` when either is unknown.
        public var pixelCount: Int? {
            guard let pixelWidth, let pixelHeight else { return nil }
            let (product, overflow) = max(pixelWidth, 0).multipliedReportingOverflow(by: max(pixelHeight, 0))
            return overflow ? Int.max : product
        }
    }

    /// The RFC 9111 §3 verdict, computed by the caller (HTTPCaching).
    public enum Storability: Sendable, Hashable {
        /// May be stored; `ttl` is the remaining freshness lifetime in seconds (§4.2; 0 = store for
        /// revalidation only). Clamped to 0…2,147,483,648.
        case storable(ttl: Int)
        /// Must not be stored, with the reason code (e.g. ``StorageReason/varyStar``).
        case notStorable(StorageReason)
    }

    /// The tier of the matched route.
    public var tier: Tier
    /// The matched route.
    public var route: Route
    /// Facts about the client request.
    public var request: Request
    /// The origin response head (after a 304 merge, the merged head).
    public var response: Response
    /// Facts about the validated body.
    public var body: Body
    /// The caller's RFC 9111 verdict.
    public var storability: Storability
    /// For a derived image, the class its source is stored in (`none` when the source was not stored): the derived
    /// image is never kept in a wider class. `nil` (the default) for a response of the origin.
    public var sourceStorage: StorageClass?
    /// For a negative entry (the problem answered for an origin error, docs/policy-format.md, "Negative caching"),
    /// its ``Tier/errorTTLKeys`` key (`"404"`, `"refused"`): stored only as the tier's ``Tier/errorLifetime(key:)``
    /// allows, at most for that long. `nil` (the default) for an image.
    public var negative: String?

    /// Creates a proposal; every fact is given by the caller.
    public init(tier: Tier, route: Route, request: Request, response: Response, body: Body, storability: Storability,
                sourceStorage: StorageClass? = nil, negative: String? = nil) {
        self.negative = negative
        self.tier = tier
        self.route = route
        self.request = request
        self.response = response
        self.body = body
        self.storability = storability
        self.sourceStorage = sourceStorage
    }
}
