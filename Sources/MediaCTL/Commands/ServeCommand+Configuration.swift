import HTTPServer
import MediaServer
import MediaService

extension ServeCommand {
    /// Builds the admin endpoint (`POST /_mediactl/purge`) for a running service and its admin token.
    public typealias AdminFactory = @Sendable (MediaService, _ adminToken: String) -> AdminHTTPHandler.Handler

    /// Tunables of a serve run.
    public struct Configuration: Sendable {
        /// Time between two sweeps of expired entries. Default: 60 s.
        public var sweepInterval: Duration
        /// Server limits and timeouts; `host` and `port` come from `--listen`. Default: the
        /// ``HTTPServer/HTTPServer/Configuration`` defaults (10 s header, 55 s idle, 10 s drain timeouts).
        public var server: HTTPServer.Configuration
        /// The origin transport. Default: `nil`, ``MediaCurl/DefaultOriginFetcher/make(note:)`` (a
        /// ``MediaCurl/CurlOriginFetcher``; when libcurl cannot be used, every fetch fails with a 502 naming why).
        public var fetcher: (any OriginFetching)?
        /// The admin endpoint. Default: `nil` (`POST /_mediactl/purge` answers 404).
        public var admin: AdminFactory?
        /// What ends the run, returning its name for the last message (such as `SIGTERM`).
        /// Default: `nil`, the first SIGINT or SIGTERM (``MediaServer/SignalWatcher``).
        public var until: (@Sendable () async -> String)?
        /// Adjusts the service's configuration (state directory already set), such as its clock.
        /// Default: no change.
        public var service: @Sendable (inout MediaService.Configuration) -> Void
        /// The glibc malloc arena cap set at start (``HTTPServer/MallocTuning/limitArenas(to:)``), so
        /// memory freed by one thread (bodies of answered requests) is reused by the others instead
        /// of staying resident in per-thread arenas; `nil` leaves glibc's default (8 per core). Not
        /// applied when the environment sets `MALLOC_ARENA_MAX` (glibc's own setting wins).
        /// Default: 1 (docs/benchmarks.md, "Memory goal, event-loop server"; glibc's per-thread caches keep
        /// small allocations lock-free, and the hit path allocates little).
        public var mallocArenaLimit: Int?
        /// How often freed heap memory is returned to the kernel (``HTTPServer/MallocTuning/trim()``)
        /// while serving, so cache churn (evicted bodies, origin-fetch buffers) does not stay resident
        /// in arenas that threads started before the cap keep using; `nil` never trims. Default: 1 s
        /// (docs/benchmarks.md, "Memory goal, event-loop server").
        public var mallocTrimInterval: Duration?
        /// Queue size and write interval of `--access-log`. Default: ``AccessLog/Configuration/init(capacity:writeInterval:startsWriter:)``.
        public var accessLog: AccessLog.Configuration = AccessLog.Configuration()

        public init(
            sweepInterval: Duration = .seconds(60), server: HTTPServer.Configuration = HTTPServer.Configuration(),
            fetcher: (any OriginFetching)? = nil, admin: AdminFactory? = nil,
            until: (@Sendable () async -> String)? = nil,
            service: @escaping @Sendable (inout MediaService.Configuration) -> Void = { _ in },
            mallocArenaLimit: Int? = 1, mallocTrimInterval: Duration? = .seconds(1)
        ) {
            self.sweepInterval = sweepInterval
            self.server = server
            self.fetcher = fetcher
            self.admin = admin
            self.until = until
            self.service = service
            self.mallocArenaLimit = mallocArenaLimit
            self.mallocTrimInterval = mallocTrimInterval
        }
    }
}
