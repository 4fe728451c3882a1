/// The options of `mediactl audit`.
public struct AuditOptions: Sendable, Hashable {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// `--policies DIR`, to judge what was persisted. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--json`: one JSON document instead of text. Default: `false`.
    public var json: Bool
    /// `--junit FILE`: also write the report as JUnit XML to FILE (``MediaAudit/AuditJUnitReport``).
    /// Default: `nil`, no file.
    public var junitFile: String?
    /// `--html FILE`: also write the report as one HTML page to FILE (``MediaAudit/AuditHTMLReport``).
    /// Default: `nil`, no file.
    public var htmlFile: String?

    public init(
        stateDirectory: String = CommandDefaults.stateDirectory,
        policiesDirectory: String = CommandDefaults.policiesDirectory, json: Bool = false,
        junitFile: String? = nil, htmlFile: String? = nil
    ) {
        self.stateDirectory = stateDirectory
        self.policiesDirectory = policiesDirectory
        self.json = json
        self.junitFile = junitFile
        self.htmlFile = htmlFile
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) {
        self.init(
            stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment),
            policiesDirectory: CommandDefaults.policiesDirectory(parsed), json: parsed.flag("json"),
            junitFile: parsed.value("junit"), htmlFile: parsed.value("html"))
    }
}
