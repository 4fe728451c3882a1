import MediaPolicy

extension MediaService {
    /// The handler that forwards the interim responses of a request's own origin exchange to its client
    /// (RFC 9110 §15.2), or `nil`:
    /// - only on generic tiers (conformance mode, `contentTypes: ["*/*"]`) with `forwardInterim: true` (off by
    ///   default: a front such as nginx before 1.29 takes a `103` for the final answer and loses the real one);
    ///   image tiers forward none (a BFF client expects the final image or problem only, and an image origin's
    ///   `Link` hints name the origin's URLs, not the cache's);
    /// - only `102`–`199`: `100 Continue` answers an expectation the service met itself (it reads the whole
    ///   request body first and never forwards `Expect`), and `101` never reaches it;
    /// - never stored: the interim response goes to the client as the origin sent it (hop-by-hop fields
    ///   removed by the transport) and takes no part in storage, `Cache-Status` or the final response.
    static func interimForwarder(for request: ServiceRequest, tier: Tier) -> OriginInterimResponse.Handler? {
        guard !tier.validatesImages, tier.forwardInterim, let forward = request.interimResponses else { return nil }
        return { response in
            guard (102...199).contains(response.status) else { return }
            forward(response)
        }
    }
}
