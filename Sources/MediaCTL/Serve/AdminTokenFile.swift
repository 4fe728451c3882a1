import MediaService
import MediaSigning

/// `--admin-token-file FILE` of `serve` and `purge --replicas`: an admin token the deployment provides, so every
/// replica of a fleet accepts the same one and a purging host needs no replica's live `serve.json`
/// (docs/scale-out.md, "A deployed admin token").
///
/// The file is read as ssh reads a private key (MediaSigning's ``MediaSigning/SecretFile``): a regular file, not a
/// link, that neither group nor others may read or write (`chmod 600`). Its text, without trailing white space, is the
/// token: 32 to 256 characters of RFC 6750 `b64token` (`A-Z a-z 0-9 - . _ ~ + /`, then `=` padding), e.g. the
/// 64 hex digits of `openssl rand -hex 32`.
enum AdminTokenFile {
    /// The shortest token accepted, characters.
    static let minimumLength = 32
    /// The longest token accepted, characters.
    static let maximumLength = 256
    /// What a token file may hold, as errors say it.
    static let allowed = "32 to 256 characters of A-Z a-z 0-9 - . _ ~ + / (an RFC 6750 b64token), "
        + "e.g. the output of 'openssl rand -hex 32'"

    /// The token in `path`.
    /// - Throws: ``CommandError`` `admin-token` (exit 2): `--admin-token-file F: does not exist; allowed: …`, `has mode
    ///   0644: readable or writable by group or others; allowed: a regular file only its owner can read or write
    ///   (chmod 600)`, or `holds N characters; allowed: 32 to 256 characters of …`.
    static func read(_ path: String) throws(CommandError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try SecretFile.read(path)
        } catch {
            throw CommandError(.adminToken, "--admin-token-file \(error)", exitCode: .unusableInput)
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last.isNewline || last == " " || last == "\t" { text.removeLast() }
        let length = text.utf8.count
        let fits = (minimumLength...maximumLength).contains(length)
        guard fits, BearerToken.isB64Token(text) else {
            let problem = fits ? "is not an RFC 6750 b64token" : "holds \(length) characters"
            throw CommandError(.adminToken, "--admin-token-file \(path): \(problem); allowed: \(allowed)",
                               exitCode: .unusableInput)
        }
        return text
    }
}
