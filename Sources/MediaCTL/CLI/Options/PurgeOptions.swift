/// The options of `mediactl purge`.
public struct PurgeOptions: Sendable, Hashable {
    /// What to purge: exactly one of `--route NAME`, `--credential-file FILE`, `--all`.
    public enum Target: Sendable, Hashable {
        /// `--route NAME`: every object of the route.
        case route(String)
        /// `--credential-file FILE`: the partition of the credential read from the file.
        case credentialFile(String)
        /// `--all`: every stored object.
        case all
    }

    /// What to purge.
    public var target: Target
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String

    public init(target: Target, stateDirectory: String = CommandDefaults.stateDirectory) {
        self.target = target
        self.stateDirectory = stateDirectory
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        var given: [(flag: String, target: Target)] = []
        if let route = parsed.value("route") { given.append(("--route", .route(route))) }
        if let file = parsed.value("credential-file") { given.append(("--credential-file", .credentialFile(file))) }
        if parsed.flag("all") { given.append(("--all", .all)) }
        guard given.count == 1 else {
            if given.isEmpty {
                throw parsed.error(
                    .conflictingOptions, "purge requires one of --route NAME, --credential-file FILE or --all")
            }
            let flags = given.map(\.flag)
            let list = flags.dropLast().joined(separator: ", ") + " and " + flags[flags.count - 1]
            throw parsed.error(.conflictingOptions, "options \(list) cannot be used together")
        }
        self.init(
            target: given[0].target, stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment))
    }
}
