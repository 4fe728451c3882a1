/// The options of `mediactl audit prune`.
public struct AuditPruneOptions: Sendable, Hashable {
    /// `--keep-segments N` (required): rotated segments to keep, 1 to ``maxKeepSegments``.
    public var keepSegments: Int
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// `--policies DIR`: the policies the removed records are judged by. Default: `./Policies`.
    public var policiesDirectory: String

    /// The largest accepted `--keep-segments` value.
    public static let maxKeepSegments = 1_000_000

    public init(
        keepSegments: Int, stateDirectory: String = CommandDefaults.stateDirectory,
        policiesDirectory: String = CommandDefaults.policiesDirectory
    ) {
        self.keepSegments = keepSegments
        self.stateDirectory = stateDirectory
        self.policiesDirectory = policiesDirectory
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        guard let text = parsed.value("keep-segments") else {
            throw parsed.error(.missingArgument, "audit prune requires --keep-segments N")
        }
        guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(text),
              (1...Self.maxKeepSegments).contains(count)
        else {
            throw parsed.error(
                .invalidValue, "invalid --keep-segments '\(text)': expected a whole number from 1 to \(Self.maxKeepSegments)")
        }
        self.init(
            keepSegments: count, stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment),
            policiesDirectory: CommandDefaults.policiesDirectory(parsed))
    }
}
