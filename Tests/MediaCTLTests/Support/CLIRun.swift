@testable import MediaCTL

/// What one in-process `mediactl` run printed and returned.
struct CLIRun: Sendable, Equatable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `arguments` in-process with captured output; the commands use `commandEnvironment`
    /// (default: production).
    static func run(
        _ arguments: [String], environment: [String: String] = [:],
        using commandEnvironment: CommandEnvironment = CommandEnvironment()
    ) async -> CLIRun {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await MediaCTLMain.run(
            arguments, environment: environment, stdout: out, stderr: err, commandEnvironment: commandEnvironment)
        return CLIRun(status: status, stdout: out.text, stderr: err.text)
    }

    /// The exact stderr of a usage error of `message` about the command at `path`.
    static func usageError(_ message: String, command path: [String]) -> String {
        let spec = CommandTree.root.descendant(at: path)!
        return "mediactl: \(message)\n" + spec.usageText + "Run '\(spec.invocation) --help' for more information.\n"
    }
}

extension CommandClock {
    /// A wall clock that always reads `now` (seconds since the epoch); the system's monotonic clock.
    static func fixed(at now: Double) -> CommandClock {
        CommandClock(now: { now }, monotonic: CommandClock.system.monotonic)
    }
}
