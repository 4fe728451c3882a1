import MediaOrigin

/// The origin transport when libcurl cannot be used (``DefaultOriginFetcher``): contacts nothing, and
/// fails every fetch with ``MediaService/OriginError/Code/connectionFailed`` (502) whose context names why, e.g.
/// `libcurl unavailable: cannot load libcurl.so.4: …`.
public struct UnavailableOriginFetcher: OriginFetching {
    /// Why libcurl cannot be used.
    public let reason: CurlOriginFetcher.Unavailable

    public init(reason: CurlOriginFetcher.Unavailable) {
        self.reason = reason
    }

    /// - Throws: always ``MediaService/OriginError`` `connection-failed` (1 attempt), context ``reason``'s description.
    public func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        throw OriginError(.connectionFailed, reason.description)
    }
}
