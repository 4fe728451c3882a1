/// The options of `mediactl policy check`.
public struct PolicyCheckOptions: Sendable, Hashable {
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String

    public init(policiesDirectory: String = CommandDefaults.policiesDirectory) {
        self.policiesDirectory = policiesDirectory
    }

    init(_ parsed: ParsedArguments) {
        self.init(policiesDirectory: CommandDefaults.policiesDirectory(parsed))
    }
}
