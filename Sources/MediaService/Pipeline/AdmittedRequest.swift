/// A request the synchronous path (``MediaService/handleIfCached(_:admitted:)``) admitted but could not answer (it needs the origin or a file read):
/// ``MediaService/handle(_:interimResponses:)`` continues it, so a miss is routed, admitted and keyed once.
/// Opaque: it carries the policy snapshot, tier and partition it was admitted under.
public final class AdmittedRequest: Sendable {
    let request: ServiceRequest
    let context: RequestContext

    /// The request's id (``RequestID``), as it was admitted with.
    public var requestID: String? { context.requestID }

    init(request: ServiceRequest, context: RequestContext) {
        self.request = request
        self.context = context
    }
}
