import Foundation
import MediaSigning

/// `mediactl sign --keys FILE --kid KID --subject SUB --expires-in SECONDS [--base-url URL] PATH`: prints a signed
/// capability URL (docs/signed-urls.md) for `PATH` (its query kept and signed), valid for SECONDS from now.
///
/// Output: one line, the signed target (`/receipts/r.png?w=144&exp=…&sub=…&kid=…&sig=…`), after `--base-url` when
/// given. Errors (exit 2, never showing a secret): the keys file's ``MediaSigning/SecretFileError`` as `policy check`
/// prints it; `unknown key id KID in FILE; the file has: A, B`; the signer's refusal
/// (`cannot sign: the path must start with / and be in canonical form …`).
public enum SignCommand {
    /// Runs the command; `clock` gives now in seconds since the epoch.
    public static func run(_ options: SignOptions, context: CommandContext,
                           clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }) -> ExitCode {
        let keyring: SigningKeyring
        do {
            keyring = try SigningKeyring.load(options.keysFile)
        } catch {
            return context.fail(CommandError(.invalidFile, error.description, exitCode: .unusableInput))
        }
        guard let key = keyring.key(options.keyID) else {
            return context.fail(CommandError(
                .invalidFile, "unknown key id \(options.keyID) in \(options.keysFile); the file has: "
                    + keyring.keyIDs.joined(separator: ", "), exitCode: .unusableInput))
        }
        let path: String, query: String?
        if let mark = options.target.firstIndex(of: "?") {
            path = String(options.target[..<mark])
            query = String(options.target[options.target.index(after: mark)...])
        } else {
            (path, query) = (options.target, nil)
        }
        do {
            let signer = try URLSigner(keyID: options.keyID, key: key)
            let target = try signer.sign(path: path, query: query, subject: options.subject,
                                         expires: Int64(clock()) + Int64(options.expiresIn))
            context.stdout.writeLine((options.baseURL ?? "") + target)
            return .success
        } catch {
            return context.fail(CommandError(.invalidFile, "cannot sign: \(error.context)", exitCode: .unusableInput))
        }
    }
}
