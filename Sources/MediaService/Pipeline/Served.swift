/// What the cache path answered a request with (``CacheLookup/serve(_:decided:)``): the response, and the
/// representation behind it when the answer is one (a hit, a stale response, an origin exchange's content),
/// `nil` for a refusal, a problem or an answer passed through (a generic tier's `HEAD`).
struct Served: Sendable {
    var response: ServiceResponse
    var representation: Representation?
    /// The answer's `Cache-Status` when it is a representation (a derived image inherits a stale source's).
    var status: CacheStatus?

    /// An answer that is no representation (a refusal, a problem, a passed-through answer).
    init(_ response: ServiceResponse) {
        self.response = response
        self.representation = nil
    }

    /// `representation` answered (``Responder/respond(_:context:now:status:storage:reason:)``), and kept with its answer.
    init(_ representation: Representation, context: RequestContext, now: Int64, status: CacheStatus, storage: Provenance,
         reason: String? = nil) {
        self.response = Responder.respond(representation, context: context, now: now, status: status, storage: storage,
                                          reason: reason)
        self.representation = representation
        self.status = status
    }

    /// The `Cache-Status` of a stored response served stale (`stale-while-revalidate`, `stale-if-error`,
    /// `max-stale`: its remaining freshness is 0 or less), else `nil`: a derived image made from it says so and is
    /// never fresher (``ImageDerivation/store(_:of:sourceDigest:sourceGeneration:source:stored:selection:reason:staleSource:derived:)``).
    var staleStatus: CacheStatus? {
        guard case .stored = representation, let status, let ttl = status.ttl, ttl <= 0 else { return nil }
        return status
    }
}
