/// A request the synchronous path admitted but could not answer (it needs the origin or a file read):
/// ``MediaService/handle(_:interimResponses:)`` continues it, so a miss is routed, admitted and keyed once.
/// Opaque: it carries the policy snapshot, tier and partition it was admitted under.
public struct AdmittedRequest: Sendable {
    let request: ServiceRequest
    let context: RequestContext
}

/// What ``MediaService/answerIfCached(_:)`` made of a request on the event loop.
public enum CachedAnswer: Sendable {
    /// The answer: a fresh hit held in memory, a refusal, or an internal endpoint.
    case answered(ServiceResponse)
    /// Admitted, and answerable only off the event loop: continue with ``MediaService/handle(_:interimResponses:)``.
    case admitted(AdmittedRequest)
    /// Not answerable without suspending and not admitted here (continue with ``MediaService/handle(_:)``).
    case declined
}
