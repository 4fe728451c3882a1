/// A request the synchronous path (``MediaService/handleIfCached(_:admitted:)``) admitted but could not answer (it needs the origin or a file read):
/// ``MediaService/handle(_:interimResponses:)`` continues it, so a miss is routed, admitted, keyed, looked up and decided on once.
/// Opaque: it carries the policy snapshot, tier and partition it was admitted under.
public final class AdmittedRequest: Sendable {
    let request: ServiceRequest
    let context: RequestContext
    /// The synchronous path's lookup and decision, or `nil` when it made none (``CacheLookup/CachedAnswer``).
    let decided: DecidedLookup?

    /// The request's id (``RequestID``), as it was admitted with.
    public var requestID: String? { context.requestID }

    init(request: ServiceRequest, context: RequestContext, decided: DecidedLookup? = nil) {
        self.request = request
        self.context = context
        self.decided = decided
    }
}
