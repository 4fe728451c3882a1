/// What the cache path answered a request with (``MediaService/serve(_:)``): the response, and the
/// representation behind it when the answer is one (a hit, a stale response, an origin exchange's content),
/// `nil` for a refusal, a problem or an answer passed through (a generic tier's `HEAD`).
struct Served: Sendable {
    var response: ServiceResponse
    var representation: Representation?

    init(_ response: ServiceResponse, _ representation: Representation? = nil) {
        self.response = response
        self.representation = representation
    }
}
