/// The options of `mediactl inspect URL`.
public struct InspectOptions: Sendable, Hashable {
    /// `URL`: an absolute `http`/`https` origin URL with a host.
    public var url: String
    /// `--policies DIR`, for the matching route and tier. Default: `./Policies`.
    public var policiesDirectory: String

    public init(url: String, policiesDirectory: String = CommandDefaults.policiesDirectory) {
        self.url = url
        self.policiesDirectory = policiesDirectory
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let url = parsed.positionals[0]
        guard OriginURL.isValid(url) else {
            throw parsed.error(.invalidValue, "invalid URL '\(url)': expected http:// or https:// with a host")
        }
        self.init(url: url, policiesDirectory: CommandDefaults.policiesDirectory(parsed))
    }
}
