/// Reads the bearer token of `mediactl purge --credential-file FILE` (a token never appears on
/// the command line, so it stays out of `ps` and shell history).
///
/// The file holds one line: the token (RFC 6750 §2.1 `b64token`) or `Bearer <token>`; a final
/// line break and surrounding spaces or tabs are ignored; a lone `Bearer` is refused. Error
/// messages never contain the token.
public enum CredentialFile {
    /// The largest credential file accepted, in bytes: 8,192.
    public static let maximumBytes = 8192

    /// The token held by the file at `path`.
    /// - Throws: ``CommandError`` with exit status 2: `unreadableFile`
    ///   (`cannot read credential file 'P': No such file or directory`), or `invalidFile` with
    ///   `credential file 'P' is larger than 8192 bytes`, `credential file 'P' is empty`,
    ///   `credential file 'P' must hold one line`,
    ///   `credential file 'P' does not hold a bearer token (RFC 6750 b64token)`.
    public static func readToken(atPath path: String) throws(CommandError) -> String {
        guard let bytes = try FileAccess.readFile(path, limit: maximumBytes, what: "credential file") else {
            throw invalid(path, "is larger than \(maximumBytes) bytes")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\r\n") {
            text.removeLast(1)  // "\r\n" is one Character
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let line = String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
        if line.isEmpty { throw invalid(path, "is empty") }
        if line.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            throw invalid(path, "must hold one line")
        }
        var token = Substring(line)
        if let space = line.firstIndex(where: isBlank), line[..<space].lowercased() == "bearer" {
            token = line[space...].drop(while: isBlank)
        }
        // A lone scheme name is a token that was left out, not a token named "Bearer".
        guard isBearerToken(token), token.lowercased() != "bearer" else {
            throw invalid(path, "does not hold a bearer token (RFC 6750 b64token)")
        }
        return String(token)
    }

    /// RFC 6750 §2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isBearerToken(_ token: Substring) -> Bool {
        let scalars = token.unicodeScalars
        let body = scalars.prefix { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", "+", "/": return true
            default: return false
            }
        }
        guard !body.isEmpty else { return false }
        return scalars.dropFirst(body.count).allSatisfy { $0 == "=" }
    }

    private static func invalid(_ path: String, _ problem: String) -> CommandError {
        CommandError(.invalidFile, "credential file '\(path)' \(problem)", exitCode: .unusableInput)
    }
}
