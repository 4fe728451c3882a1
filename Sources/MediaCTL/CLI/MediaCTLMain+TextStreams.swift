extension MediaCTLMain {
    /// Runs one command line with output collected, then appended to `stdout` and `stderr` once
    /// the command has finished (for callers holding `TextOutputStream`s, such as tests). Bytes
    /// that are not UTF-8 become U+FFFD; use the ``OutputSink`` form for binary output or for
    /// long-running commands such as `serve`.
    /// - Returns: the exit status, as ``run(_:environment:stdout:stderr:commandEnvironment:)``.
    public static func run(
        _ arguments: some Sequence<String>, environment: [String: String], stdout: inout some TextOutputStream,
        stderr: inout some TextOutputStream, commandEnvironment: CommandEnvironment = CommandEnvironment()
    ) async -> Int32 {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await run(arguments, environment: environment, stdout: out, stderr: err, commandEnvironment: commandEnvironment)
        stdout.write(out.text)
        stderr.write(err.text)
        return status
    }
}
