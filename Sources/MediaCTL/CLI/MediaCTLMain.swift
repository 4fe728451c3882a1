import MediaService

/// The `mediactl` command line, runnable in-process: parse, print help or usage errors, and run the
/// ``MediaCommand`` of ``CommandTree``.
public enum MediaCTLMain {
    /// The version printed by `mediactl --version`.
    public static let version = ServiceVersion.current

    /// Runs one `mediactl` command line.
    ///
    /// - Parameters:
    ///   - arguments: the words after the program name (`CommandLine.arguments.dropFirst()`).
    ///   - environment: the process environment; `MEDIACTL_STATE_DIR` is read from it.
    ///   - stdout: where help, `--version` and results go. Default: file descriptor 1.
    ///   - stderr: where usage errors and diagnostics go. Default: file descriptor 2.
    ///   - commandEnvironment: the transport, clocks and clients the commands use. Default: production.
    /// - Returns: the exit status: 0 ok (also help and `--version`), 1 violations or failed check,
    ///   2 unusable input, 64 usage error (printed as `mediactl: <message>`, then the command's
    ///   usage and a pointer to its `--help`).
    public static func run(
        _ arguments: some Sequence<String>, environment: [String: String],
        stdout: any OutputSink = FileDescriptorOutput.standardOutput,
        stderr: any OutputSink = FileDescriptorOutput.standardError,
        commandEnvironment: CommandEnvironment = CommandEnvironment()
    ) async -> Int32 {
        let context = CommandContext(stdout: stdout, stderr: stderr, environment: environment)
        let commandLine: ParsedCommandLine
        do {
            commandLine = try parse(Array(arguments), environment: environment)
        } catch {
            report(error, to: stderr)
            return ExitCode.usage.rawValue
        }
        return await perform(commandLine, context: context, environment: commandEnvironment).rawValue
    }

    /// Performs `commandLine`: prints help or the version, or runs the command (or
    /// ``CommandEnvironment/interceptor`` instead, when set).
    public static func perform(
        _ commandLine: ParsedCommandLine, context: CommandContext, environment: CommandEnvironment
    ) async -> ExitCode {
        switch commandLine {
        case .help(let spec):
            context.stdout.write(spec.helpText)
            return .success
        case .version:
            context.stdout.writeLine("mediactl \(version)")
            return .success
        case .command(let command):
            if let interceptor = environment.interceptor { return await interceptor(command, context) }
            return await command.run(in: environment, context: context)
        }
    }

    /// Writes a usage error: `mediactl: <message>`, the command's usage, and
    /// `Run '<command> --help' for more information.`
    public static func report(_ error: UsageError, to stderr: any OutputSink) {
        let spec = CommandTree.root.descendant(at: error.command) ?? CommandTree.root
        stderr.writeLine("mediactl: " + error.message)
        stderr.write(spec.usageText)
        stderr.writeLine("Run '\(spec.invocation) --help' for more information.")
    }
}
