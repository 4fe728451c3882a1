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
}
