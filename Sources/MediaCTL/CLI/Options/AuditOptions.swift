/// The options of `mediactl audit`.
public struct AuditOptions: Sendable, Hashable {
    /// Every `--state-dir DIR`, in command-line order: one replica each (docs/scale-out.md). Never empty;
    /// without the option: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectories: [String]
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

    /// The first (with one `--state-dir`, the only) state directory.
    public var stateDirectory: String {
        get { stateDirectories[0] }
        set { stateDirectories[0] = newValue }
    }

    /// `true` with more than one `--state-dir`: the fleet report (``AuditFleetDocument``).
    public var isFleet: Bool { stateDirectories.count > 1 }

    /// - Parameter moreStateDirectories: the state directories after `stateDirectory` (a fleet audit).
    public init(
        stateDirectory: String = CommandDefaults.stateDirectory,
        policiesDirectory: String = CommandDefaults.policiesDirectory, json: Bool = false,
        junitFile: String? = nil, htmlFile: String? = nil, moreStateDirectories: [String] = []
    ) {
        self.stateDirectories = [stateDirectory] + moreStateDirectories
        self.policiesDirectory = policiesDirectory
        self.json = json
        self.junitFile = junitFile
        self.htmlFile = htmlFile
    }

    /// - Throws: ``UsageError`` `invalid-value` when one state directory is given twice
    ///   (`state directory 'A' is given twice: each replica has its own`).
    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        let given = parsed.allValues("state-dir")
        var seen = Set<String>()
        for directory in given where !seen.insert(directory).inserted {
            throw parsed.error(.invalidValue, "state directory '\(directory)' is given twice: each replica has its own")
        }
        self.init(
            stateDirectory: given.first ?? CommandDefaults.stateDirectory(parsed, environment: environment),
            policiesDirectory: CommandDefaults.policiesDirectory(parsed), json: parsed.flag("json"),
            junitFile: parsed.value("junit"), htmlFile: parsed.value("html"),
            moreStateDirectories: Array(given.dropFirst()))
    }
}
