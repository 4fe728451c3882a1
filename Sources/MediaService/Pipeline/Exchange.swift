import HTTPCaching
import MediaCore
import MediaStorage

/// The result of one origin exchange (fetch or validation, then validate, decide, store, audit),
/// handed to coalesced waiters when ``shareable``.
struct Exchange: Sendable {
    enum Result: Sendable {
        /// A representation to serve.
        case content(Content)
        /// A refusal to send as is (not an image, over a limit, an origin 4xx).
        case refused(ServiceResponse)
        /// The origin could not be reached (`status == nil`) or answered 5xx: the caller may serve stale.
        case originFailed(status: HTTPStatus?, response: ServiceResponse)
    }

    /// What to serve, and what happened to it.
    struct Content: Sendable {
        var response: StoredResponse
        var head: StoredHead
        var body: [UInt8]
        var cacheStatus: CacheStatus
        /// `disk`, `encrypted-disk`, `memory`, or `none`.
        var storage: Provenance
        var reason: String
        /// The store key when the representation is stored (a new entry or a 304's update), else `nil`.
        var storeKey: String? = nil
        /// The stored entry's ``MediaStorage/EntryMetadata/expiresAt`` when stored, else `nil`.
        var expiresAt: Double? = nil
        /// The keyed digests of the representation's cache tags (``MediaStorage/EntryMetadata/tags``), stored or not.
        var tags: [CacheTagDigest] = []
    }

    var result: Result
    /// Whether waiters of the same flight may receive it (never a `private`/`no-store` answer).
    var shareable: Bool
}
