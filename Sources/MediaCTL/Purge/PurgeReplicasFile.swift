import Foundation

/// The `--replicas FILE` of `mediactl purge`: which replicas to purge and where each one's admin token is.
///
/// Format (UTF-8 text, at most 1 MiB), one replica per line:
///
/// ```
/// # ADMIN-URL              TOKEN-SOURCE
/// http://10.0.0.11:9091    /mnt/r1                    # a state directory: its serve.json
/// http://10.0.0.12:9091    /run/mediactl/r2.serve.json # a serve.json file (a copy of the replica's)
/// ```
///
/// - Blank lines, and lines whose first non-blank character is `#`, are skipped; a field starting with `#`
///   starts a trailing comment. Fields are separated by spaces or tabs (paths cannot contain either).
/// - `ADMIN-URL`: `http://HOST[:PORT][/]`, the replica's `--admin-listen` address (port default 80). Only
///   `http`: the admin listener speaks plain HTTP, so `https` is refused; no user info, path, query or fragment.
/// - `TOKEN-SOURCE`: the replica's state directory (its `serve.json` is read) or a `serve.json` file. The token is
///   never on the command line (it would show in `ps`) nor in this file; `serve` makes a fresh one at every start,
///   so the source must be the live `serve.json`. A state directory without `serve.json` (the replica is stopped) is
///   not an input error: that replica fails the purge (exit 1).
/// - With `purge --admin-token-file FILE`, a line may be the ADMIN-URL alone: that replica is sent the token of FILE
///   (replicas started with `serve --admin-token-file` share it). A line with a TOKEN-SOURCE still uses its serve.json.
/// - The same ADMIN-URL twice is an error.
///
/// Errors (``CommandError``, exit 2), each naming the file and the line:
/// `replicas file 'F' line N: <what>`; `cannot read replicas file 'F': …`; `replicas file 'F' names no replica`.
struct PurgeReplicasFile: Sendable, Hashable {
    /// One line of the file.
    struct Replica: Sendable, Hashable {
        /// The URL as written, without a trailing `/`: how output names the replica.
        var url: String
        /// `host:port` to connect to (`[v6]:port` for IPv6).
        var authority: String
        /// The state directory or serve.json path; `nil` for a line without one (the token of `--admin-token-file`).
        var tokenSource: String?
        /// The 1-based line number.
        var line: Int
    }

    /// The largest file read, bytes: 1 MiB.
    static let maximumBytes = 1 << 20

    /// The replicas, in file order.
    var replicas: [Replica]

    /// Reads and validates `path`.
    /// - Throws: ``CommandError`` (exit 2), see the type's documentation.
    /// - Parameter sharedToken: whether `--admin-token-file` was given: then a line may be the ADMIN-URL alone.
    static func read(_ path: String, sharedToken: Bool = false) throws(CommandError) -> PurgeReplicasFile {
        guard let bytes = try FileAccess.readFile(path, limit: maximumBytes, what: "replicas file") else {
            throw CommandError(
                .invalidFile, "replicas file '\(path)' is larger than \(maximumBytes) bytes", exitCode: .unusableInput)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.invalidFile, "replicas file '\(path)' is not UTF-8 text", exitCode: .unusableInput)
        }
        return try parse(text, path: path, sharedToken: sharedToken)
    }

    /// Parses the text of the file at `path` (`path` only names it in errors).
    /// - Throws: ``CommandError`` (exit 2).
    static func parse(_ text: String, path: String, sharedToken: Bool = false) throws(CommandError) -> PurgeReplicasFile {
        var replicas: [Replica] = []
        var lineOfURL: [String: Int] = [:]
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            var fields = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if let comment = fields.firstIndex(where: { $0.hasPrefix("#") }) { fields.removeSubrange(comment...) }
            if fields.isEmpty { continue }
            func fail(_ what: String) -> CommandError {
                CommandError(.invalidFile, "replicas file '\(path)' line \(line): \(what)", exitCode: .unusableInput)
            }
            guard fields.count == 2 || (fields.count == 1 && sharedToken) else {
                if fields.count == 1 {
                    throw fail(
                        "\(fields[0]) has no token source: write 'ADMIN-URL STATE-DIR' or 'ADMIN-URL SERVE.JSON'")
                }
                throw fail("expected 2 fields (ADMIN-URL TOKEN-SOURCE), found \(fields.count)")
            }
            let url = fields[0].hasSuffix("/") ? String(fields[0].dropLast()) : fields[0]
            let authority: String
            switch Self.authority(of: fields[0]) {
            case .success(let value): authority = value
            case .failure(let problem): throw fail("\(fields[0]): \(problem.text)")
            }
            if let earlier = lineOfURL[url] { throw fail("\(url) is already on line \(earlier)") }
            let source = fields.count == 2 ? fields[1] : nil
            if let source, !FileManager.default.fileExists(atPath: source) {
                throw fail("token source '\(source)' does not exist (a state directory or a serve.json file)")
            }
            lineOfURL[url] = line
            replicas.append(Replica(url: url, authority: authority, tokenSource: source, line: line))
        }
        guard !replicas.isEmpty else {
            throw CommandError(.invalidFile, "replicas file '\(path)' names no replica", exitCode: .unusableInput)
        }
        return PurgeReplicasFile(replicas: replicas)
    }

    struct URLProblem: Error, Hashable { let text: String }

    /// `host:port` of an admin URL `http://HOST[:PORT][/]`.
    static func authority(of text: String) -> Result<String, URLProblem> {
        let shape = "not an admin URL http://HOST:PORT"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return .failure(URLProblem(text: shape))
        }
        guard scheme == "http" else {
            if scheme == "https" {
                return .failure(URLProblem(text: "https is not supported: the admin listener speaks plain HTTP"))
            }
            return .failure(URLProblem(text: shape))
        }
        guard let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else { return .failure(URLProblem(text: shape + " (no user, path, query or fragment)")) }
        let port = components.port ?? 80
        guard (1...65_535).contains(port) else { return .failure(URLProblem(text: "port \(port) is out of range")) }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return .success("\(bracketed):\(port)")
    }
}
