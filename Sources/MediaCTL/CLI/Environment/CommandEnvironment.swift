import MediaCurl
import MediaService

/// What the commands talk to besides their options: the origin transport, the clocks, the client of a
/// running service's admin listener, what stops `serve`, and standard input. Production uses every
/// default; tests inject what they script.
public struct CommandEnvironment: Sendable {
    /// The HTTP client of `serve`, `fetch`, `inspect` and `warm`. Default: `nil`,
    /// ``MediaCurl/DefaultOriginFetcher/make(note:)`` (libcurl; when it cannot be used, every fetch fails
    /// with a 502 naming why).
    public var fetcher: (any OriginFetching)?
    /// The clocks of `audit` (report time and duration), `sign` and `inspect` (now), `fetch` and `serve` (the
    /// service's now) and `warm` (progress). Default: `nil`, the system clocks (``CommandClock/system``).
    public var clock: CommandClock?
    /// How `purge` and `reload` talk to the running service's admin listener. Default: its own defaults.
    public var purgeClient: PurgeClient.Configuration
    /// What ends `serve` and `demo --keep-serving`, returning its name for the last message. Default: `nil`,
    /// the first SIGINT or SIGTERM.
    public var stop: (@Sendable () async -> String)?
    /// Reads the whole of standard input (`warm -`), or `nil` past ``WarmCommand/maximumInputBytes``.
    /// Default: `nil`, file descriptor 0.
    public var standardInput: (@Sendable () throws(CommandError) -> [UInt8]?)?
    /// Whether standard error is a terminal (`warm` draws a progress bar). Default: `nil`, `isatty(2)`.
    public var standardErrorIsTerminal: Bool?
    /// Runs instead of the parsed command's own ``MediaCommand/run(in:context:)`` (tests of parsing and
    /// dispatch). Default: `nil`, the command runs.
    public var interceptor: (@Sendable (any MediaCommand, CommandContext) async -> ExitCode)?

    /// Every default: production.
    public init(
        fetcher: (any OriginFetching)? = nil, clock: CommandClock? = nil,
        purgeClient: PurgeClient.Configuration = PurgeClient.Configuration(),
        stop: (@Sendable () async -> String)? = nil,
        standardInput: (@Sendable () throws(CommandError) -> [UInt8]?)? = nil, standardErrorIsTerminal: Bool? = nil,
        interceptor: (@Sendable (any MediaCommand, CommandContext) async -> ExitCode)? = nil
    ) {
        self.fetcher = fetcher
        self.clock = clock
        self.purgeClient = purgeClient
        self.stop = stop
        self.standardInput = standardInput
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.interceptor = interceptor
    }

    /// ``fetcher``, or the production transport.
    var originFetcher: any OriginFetching { fetcher ?? DefaultOriginFetcher.make() }

    /// ``clock``, or the system clocks.
    var clocks: CommandClock { clock ?? .system }
}
