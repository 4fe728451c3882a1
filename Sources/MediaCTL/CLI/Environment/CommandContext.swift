/// What every command action receives besides its options: output streams and the environment.
public struct CommandContext: Sendable {
    /// Where results go (text, or one JSON document with `--json`).
    public let stdout: any OutputSink
    /// Where diagnostics go, each line prefixed `mediactl: `.
    public let stderr: any OutputSink
    /// The process environment as given to ``MediaCTLMain/run(_:environment:stdout:stderr:commandEnvironment:)``.
    public let environment: [String: String]

    public init(stdout: any OutputSink, stderr: any OutputSink, environment: [String: String]) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
    }

    /// Writes `mediactl: <message>` and a line break to ``stderr``.
    public func diagnose(_ message: String) {
        stderr.writeLine("mediactl: " + message)
    }
}
