/// The result of deriving one variant, handed to coalesced requests for the same variant when ``shareable``.
struct Derivation: Sendable {
    enum Result: Sendable {
        /// The variant's representation (stored or not), answered with each request's own context.
        case content(Exchange.Content)
        /// An answer to send as is: the source's own (an error, a refusal, `no-transform`), or a problem.
        case response(ServiceResponse)
    }

    var result: Result
    var shareable: Bool
    /// The transform was dropped before it started: the request's client went away (``MediaCore/ClientPresence``).
    /// Requests that joined it derive the variant themselves.
    var clientGone = false

    /// A transform dropped because its client left: ``droppedResponse(_:)``, never shared.
    static func dropped(_ context: RequestContext) -> Derivation {
        Derivation(result: .response(droppedResponse(context)), shareable: false, clientGone: true)
    }

    /// The answer logged for a request whose client left before its transform started: `499`, as nginx logs it
    /// (never sent: the connection is closed).
    static func droppedResponse(_ context: RequestContext) -> ServiceResponse {
        var outcome = context.outcome
        outcome.storage = .notStored
        return Responder.problem(499, code: "client-closed-request",
                                 detail: "the client closed the connection before its variant was derived", outcome: outcome)
    }
}
