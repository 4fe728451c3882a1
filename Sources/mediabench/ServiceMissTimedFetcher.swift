import MediaService
import Synchronization

/// Wraps a fetcher and records how long each `fetch` took (nanoseconds), so a miss's wall time can
/// be split into the transport's share and the service's own (`MEDIABENCH_MISS_SPLIT=1`).
final class ServiceMissTimedFetcher: OriginFetching {
    let base: any OriginFetching
    private let samples = Mutex<[UInt64]>([])

    init(_ base: any OriginFetching) { self.base = base }

    func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        let start = Stopwatch.now()
        defer {
            let elapsed = Stopwatch.now() - start
            samples.withLock { $0.append(elapsed) }
        }
        return try await base.fetch(request)
    }

    /// The samples recorded since the last call, and forgets them.
    func take() -> [UInt64] { samples.withLock { samples in defer { samples = [] }; return samples } }
}
