/// The options of `mediactl serve`.
public struct ServeOptions: Sendable, Hashable {
    /// `--listen HOST:PORT`. Default: ``ListenAddress/default`` (127.0.0.1:8080).
    public var listen: ListenAddress
    /// `--admin-listen HOST:PORT|off`: where `/_mediactl/health`, `/_mediactl/metrics`, `POST /_mediactl/purge`
    /// and `POST /_mediactl/admin/reload` are answered (docs/operations.md, "Admin listener"); `nil` (`off`): no
    /// admin listener. Default: ``ListenAddress/adminDefault`` (127.0.0.1:9091).
    public var adminListen: ListenAddress?
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// Every `--origin ROUTE=URL`, in command-line order, at most one per route. Default: empty.
    public var origins: [OriginOverride]
    /// `--event-loops N`: how many event-loop threads serve the connections, 1 to
    /// ``maxEventLoops``. Default: `nil`, one per online CPU
    /// (``HTTPServer/HTTPServer/Configuration/defaultEventLoopCount``).
    public var eventLoops: Int?
    /// `--access-log PATH|-`: where the access log goes (`-`: standard output). Default: `nil`, no access log.
    public var accessLog: String?
    /// Every `--front ADDR`: front proxies exempt from the per-address connection cap (256), canonical
    /// (`127.0.0.1`, `[::1]`). Default: none.
    public var fronts: [String]

    /// The largest accepted `--event-loops` value.
    public static let maxEventLoops = 256

    public init(
        listen: ListenAddress = .default, policiesDirectory: String = CommandDefaults.policiesDirectory,
        stateDirectory: String = CommandDefaults.stateDirectory, origins: [OriginOverride] = [],
        eventLoops: Int? = nil, adminListen: ListenAddress? = .adminDefault, accessLog: String? = nil,
        fronts: [String] = []
    ) {
        self.fronts = fronts
        self.listen = listen
        self.adminListen = adminListen
        self.policiesDirectory = policiesDirectory
        self.stateDirectory = stateDirectory
        self.origins = origins
        self.eventLoops = eventLoops
        self.accessLog = accessLog
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        var listen = ListenAddress.default
        if let text = parsed.value("listen") {
            switch ListenAddress.parse(text) {
            case .success(let address): listen = address
            case .failure(let error): throw parsed.error(.invalidValue, "invalid --listen '\(text)': \(error.reason)")
            }
        }
        var adminListen: ListenAddress? = .adminDefault
        if let text = parsed.value("admin-listen") {
            if text == "off" {
                adminListen = nil
            } else {
                switch ListenAddress.parse(text) {
                case .success(let address): adminListen = address
                case .failure(let error):
                    throw parsed.error(.invalidValue, "invalid --admin-listen '\(text)': \(error.reason) (or off)")
                }
            }
        }
        let origins = try OriginOverride.all(parsed)
        var eventLoops: Int?
        if let text = parsed.value("event-loops") {
            guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(text),
                  (1...Self.maxEventLoops).contains(count)
            else {
                throw parsed.error(
                    .invalidValue, "invalid --event-loops '\(text)': expected a whole number from 1 to \(Self.maxEventLoops)")
            }
            eventLoops = count
        }
        var fronts: [String] = []
        for text in parsed.allValues("front") {
            switch FrontAddress.parse(text) {
            case .success(let address): fronts.append(address.text)
            case .failure(let error): throw parsed.error(.invalidValue, "invalid --front '\(text)': \(error.reason)")
            }
        }
        self.init(
            listen: listen, policiesDirectory: CommandDefaults.policiesDirectory(parsed),
            stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment), origins: origins,
            eventLoops: eventLoops, adminListen: adminListen, accessLog: parsed.value("access-log"),
            fronts: fronts)
    }
}
