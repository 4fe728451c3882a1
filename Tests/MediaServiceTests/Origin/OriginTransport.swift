import MediaService

/// The origin transports under test, for suites parameterized over both.
enum OriginTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    case curl

    var description: String { rawValue }

    /// A fetcher of this kind with defaults except the given tunables.
    func make(idleTimeout: Double = 10, retryBaseDelay: Double = 0.05,
              onRetry: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)? = nil) throws -> any OriginFetching {
        switch self {
        case .urlSession:
            return URLSessionOriginFetcher(configuration: .init(idleTimeout: idleTimeout, retryBaseDelay: retryBaseDelay),
                                           onRetry: onRetry)
        case .curl:
            return try CurlOriginFetcher(configuration: .init(idleTimeout: idleTimeout, retryBaseDelay: retryBaseDelay),
                                         onRetry: onRetry)
        }
    }
}
