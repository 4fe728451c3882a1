import MediaService

/// The `mediactl` command line, runnable in-process: parse, print help or usage errors, and
/// dispatch to ``CommandActions``.
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
    ///   - actions: what the commands do. Default: ``UnavailableCommandActions``.
    /// - Returns: the exit status: 0 ok (also help and `--version`), 1 violations or failed check,
    ///   2 unusable input, 64 usage error (printed as `mediactl: <message>`, then the command's
    ///   usage and a pointer to its `--help`).
    public static func run(
        _ arguments: some Sequence<String>, environment: [String: String],
        stdout: any OutputSink = FileDescriptorOutput.standardOutput,
        stderr: any OutputSink = FileDescriptorOutput.standardError,
        actions: any CommandActions = UnavailableCommandActions()
    ) async -> Int32 {
        let context = CommandContext(stdout: stdout, stderr: stderr, environment: environment)
        let command: ParsedCommand
        do {
            command = try parse(Array(arguments), environment: environment)
        } catch {
            report(error, to: stderr)
            return ExitCode.usage.rawValue
        }
        return await dispatch(command, context: context, actions: actions).rawValue
    }

    /// Performs `command`: prints help or the version, or calls the matching action.
    public static func dispatch(
        _ command: ParsedCommand, context: CommandContext, actions: any CommandActions
    ) async -> ExitCode {
        switch command {
        case .help(let spec):
            context.stdout.write(spec.helpText)
            return .success
        case .version:
            context.stdout.writeLine("mediactl \(version)")
            return .success
        case .serve(let options): return await actions.serve(options, context: context)
        case .demo(let options): return await actions.demo(options, context: context)
        case .fetch(let options): return await actions.fetch(options, context: context)
        case .inspect(let options): return await actions.inspect(options, context: context)
        case .audit(let options): return await actions.audit(options, context: context)
        case .auditVerify(let options): return await actions.auditVerify(options, context: context)
        case .auditPrune(let options): return await actions.auditPrune(options, context: context)
        case .policyCheck(let options): return await actions.policyCheck(options, context: context)
        case .purge(let options): return await actions.purge(options, context: context)
        case .reload(let options): return await actions.reload(options, context: context)
        case .warm(let options): return await actions.warm(options, context: context)
        case .sign(let options): return await actions.sign(options, context: context)
        }
    }

    /// Writes a usage error: `mediactl: <message>`, the command's usage, and
    /// `Run '<command> --help' for more information.`
    public static func report(_ error: UsageError, to stderr: any OutputSink) {
        let spec = CommandCatalog.root.descendant(at: error.command) ?? CommandCatalog.root
        stderr.writeLine("mediactl: " + error.message)
        stderr.write(spec.usageText)
        stderr.writeLine("Run '\(spec.invocation) --help' for more information.")
    }
}
