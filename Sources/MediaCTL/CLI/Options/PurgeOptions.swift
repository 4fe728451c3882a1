import MediaSigning

/// The options of `mediactl purge`.
public struct PurgeOptions: Sendable, Hashable {
    /// What to purge: exactly one of `--route NAME`, `--credential-file FILE`, `--subject SUB`, `--all`.
    public enum Target: Sendable, Hashable {
        /// `--route NAME`: every object of the route.
        case route(String)
        /// `--credential-file FILE`: the partition of the credential read from the file.
        case credentialFile(String)
        /// `--subject SUB`: the partition of a signed-URL subject (docs/signed-urls.md).
        case subject(String)
        /// `--all`: every stored object.
        case all
    }

    /// What to purge.
    public var target: Target
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`. Unused with ``replicasFile``.
    public var stateDirectory: String
    /// `--replicas FILE`: purge every replica the file names (``PurgeReplicasFile``) instead of the one
    /// service of ``stateDirectory``; `nil` when not given. Cannot be combined with `--state-dir`.
    public var replicasFile: String?

    public init(target: Target, stateDirectory: String = CommandDefaults.stateDirectory, replicasFile: String? = nil) {
        self.target = target
        self.stateDirectory = stateDirectory
        self.replicasFile = replicasFile
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        var given: [(flag: String, target: Target)] = []
        if let route = parsed.value("route") { given.append(("--route", .route(route))) }
        if let file = parsed.value("credential-file") { given.append(("--credential-file", .credentialFile(file))) }
        if let subject = parsed.value("subject") {
            guard SignedURLParameters.isSubject(subject) else {
                throw parsed.error(.invalidValue, "invalid --subject: expected 1 to 128 of A-Z a-z 0-9 . _ -")
            }
            given.append(("--subject", .subject(subject)))
        }
        if parsed.flag("all") { given.append(("--all", .all)) }
        guard given.count == 1 else {
            if given.isEmpty {
                throw parsed.error(
                    .conflictingOptions, "purge requires one of --route NAME, --credential-file FILE, --subject SUB or --all")
            }
            let flags = given.map(\.flag)
            let list = flags.dropLast().joined(separator: ", ") + " and " + flags[flags.count - 1]
            throw parsed.error(.conflictingOptions, "options \(list) cannot be used together")
        }
        let replicas = parsed.value("replicas")
        if replicas != nil, parsed.value("state-dir") != nil {
            throw parsed.error(.conflictingOptions, "options --state-dir and --replicas cannot be used together")
        }
        self.init(
            target: given[0].target, stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment),
            replicasFile: replicas)
    }
}
