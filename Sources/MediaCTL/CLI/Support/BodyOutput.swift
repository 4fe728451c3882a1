/// Where `mediactl fetch --output FILE` puts the response body.
public enum BodyOutput {
    /// Writes `body` to `path`: `-` means the context's stdout; any other path is created (mode
    /// 0600, since bodies may be private) or truncated, then written in full.
    /// - Throws: ``CommandError`` `unwritableFile`, exit status 2, such as
    ///   `cannot write '/nonexistent/a.jpg': No such file or directory`.
    public static func write(_ body: [UInt8], toPath path: String, context: CommandContext) throws(CommandError) {
        if path == "-" {
            context.stdout.write(bytes: body)
        } else {
            try FileAccess.writeFile(body, to: path)
        }
    }
}
