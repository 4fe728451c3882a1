import Foundation
import MediaSigning

/// `mediactl sign --keys FILE --kid KID --subject SUB --expires-in SECONDS [--base-url URL] PATH`: prints a signed
/// capability URL (docs/signed-urls.md) for `PATH` (its query kept and signed), valid for SECONDS from now.
///
/// Output: one line, the signed target (`/receipts/r.png?w=144&exp=…&sub=…&kid=…&sig=…`), after `--base-url` when
/// given. Errors (exit 2, never showing a secret): the keys file's ``MediaSigning/SecretFileError`` as `policy check`
/// prints it; `unknown key id KID in FILE; the file has: A, B`; the signer's refusal
/// (`cannot sign: the path must start with / and be in canonical form …`).
public struct SignCommand: MediaCommand {
    /// Longest `--expires-in`: 86,400 seconds (the largest `signedURLs.maxLifetime`).
    public static let maxExpiresIn = 86_400

    /// `--keys FILE`: the keys file (`KID SECRET` lines, mode 0600).
    public var keysFile: String = ""
    /// `--kid KID`: the key to sign with.
    public var keyID: String = ""
    /// `--subject SUB`: the subject, 1–128 of `[A-Za-z0-9._-]`.
    public var subject: String = ""
    /// `--expires-in SECONDS`: 1–86,400.
    public var expiresIn: Int = 1
    /// `--base-url URL`: printed before the target (`https://media.example.com`), or `nil`: the target only.
    public var baseURL: String?
    /// `PATH`: the request target to sign, starting with `/`, with an optional query (`/receipts/r.png?w=144`).
    public var target: String = "/"

    public static let declaration = CommandDeclaration<Self>(
        path: ["sign"],
        summary: "Print a signed capability URL for a tier with signedURLs (docs/signed-urls.md).",
        arguments: [
            .text("keys", valueName: "FILE", required: true, help: "The keys file (KID SECRET lines), readable by its owner only. Required.", \.keysFile),
            .text("kid", valueName: "KID", required: true, help: "The key id to sign with. Required.", \.keyID),
            .text("subject", valueName: "SUB", required: true, help: "The subject, 1 to 128 of A-Z a-z 0-9 . _ -: the partition the URL opens. Required.", \.subject),
            .wholeNumber(
                "expires-in", valueName: "SECONDS", in: 1...maxExpiresIn, unit: "seconds", required: true,
                help: "Seconds from now until the URL expires, 1 to 86400. Required.", \.expiresIn),
            .parsed(
                "base-url", valueName: "URL", help: "Print the URL with this http(s)://HOST[:PORT] before the target. Default: the target only.",
                \.baseURL,
                parse: { WarmCommand.serverBase($0).map { .success($0) } ?? .failure("expected http://HOST[:PORT] or https://HOST[:PORT]") }),
            .positional(
                "PATH", help: "The request target to sign, such as /receipts/r-7731.png?w=144 (its query is signed too).",
                \.target, parse: { $0.hasPrefix("/") ? .success($0) : .failure("must start with '/'") }),
        ],
        notes: [CommandTree.exitCodes(ok: "printed", failure: nil)],
        defaults: { Self() })

    /// Prints the signed URL (``SignCommand``), expiring `--expires-in` seconds after the environment's now.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        run(context: context, clock: environment.clocks.now)
    }

    /// Runs the command; `clock` gives now in seconds since the epoch.
    func run(context: CommandContext,
                           clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }) -> ExitCode {
        let keyring: SigningKeyring
        do {
            keyring = try SigningKeyring.load(keysFile)
        } catch {
            return context.fail(CommandError(.invalidFile, error.description, exitCode: .unusableInput))
        }
        guard let key = keyring.key(keyID) else {
            return context.fail(CommandError(
                .invalidFile, "unknown key id \(keyID) in \(keysFile); the file has: "
                    + keyring.keyIDs.joined(separator: ", "), exitCode: .unusableInput))
        }
        let path: String, query: String?
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            (path, query) = (target, nil)
        }
        do {
            let signer = try URLSigner(keyID: keyID, key: key)
            let target = try signer.sign(path: path, query: query, subject: subject,
                                         expires: Int64(clock()) + Int64(expiresIn))
            context.stdout.writeLine((baseURL ?? "") + target)
            return .success
        } catch {
            return context.fail(CommandError(.invalidFile, "cannot sign: \(error.context)", exitCode: .unusableInput))
        }
    }
}
