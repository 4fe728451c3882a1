/// What the cache path answered a request with (``MediaService/serve(_:)``): the response, and the
/// representation behind it when the answer is one (a hit, a stale response, an origin exchange's content),
/// `nil` for a refusal, a problem or an answer passed through (a generic tier's `HEAD`).
struct Served: Sendable {
    var response: ServiceResponse
    var representation: Representation?

    /// An answer that is no representation (a refusal, a problem, a passed-through answer).
    init(_ response: ServiceResponse) {
        self.response = response
        self.representation = nil
    }

    /// `representation` answered (``Responder/respond(_:context:now:status:storage:reason:)``), and kept with its answer.
    init(_ representation: Representation, context: RequestContext, now: Int64, status: CacheStatus, storage: String,
         reason: String? = nil) {
        self.response = Responder.respond(representation, context: context, now: now, status: status, storage: storage,
                                          reason: reason)
        self.representation = representation
    }
}
