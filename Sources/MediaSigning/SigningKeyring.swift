import MediaCrypto

/// The keys a tier verifies signed URLs with (policy key `signedURLs.keys`): key id → HMAC-SHA256 key.
///
/// File format (docs/signed-urls.md, "Keys file"): one key per line, `KID SECRET`, separated by spaces or
/// tabs; `KID` is 1–32 of `[A-Za-z0-9._-]`, `SECRET` the unpadded base64url of at least 32 bytes; `#` starts
/// a comment (to the end of the line); blank lines are skipped; a key id appears once. Several keys may be
/// active at once (rotation). The file must be readable by its owner only (``SecretFile``).
///
/// `description` shows only the key ids; the secrets live in ``MediaCrypto/SymmetricKey``s, which never print.
public struct SigningKeyring: Sendable, CustomStringConvertible {
    /// Shortest secret: 32 bytes.
    public static let minimumSecretBytes = 32
    /// Key id → key.
    let keys: [String: SymmetricKey]

    /// The key ids, sorted.
    public var keyIDs: [String] { keys.keys.sorted() }

    /// A keyring of the given keys (tests, in-process signers).
    public init(keys: [String: SymmetricKey]) {
        self.keys = keys
    }

    /// The key named `keyID`, or `nil`.
    public func key(_ keyID: some StringProtocol) -> SymmetricKey? { keys[String(keyID)] }

    /// Reads and parses the keys file at `path`.
    /// - Throws: ``SecretFileError`` (`unreadable`, `insecure-mode`, `malformed`).
    public static func load(_ path: String) throws(SecretFileError) -> SigningKeyring {
        try parse(SecretFile.read(path), file: path)
    }

    /// Parses a keys file's bytes; `file` names it in errors.
    /// - Throws: ``SecretFileError`` `malformed` naming the line (never its secret): no key, a line
    ///   that is not `KID SECRET`, an invalid key id, a secret that is not base64url or is shorter than
    ///   ``minimumSecretBytes``, a key id used twice.
    public static func parse(_ bytes: [UInt8], file: String) throws(SecretFileError) -> SigningKeyring {
        let allowed = "lines 'KID SECRET': KID 1 to 32 of A-Z a-z 0-9 . _ -, SECRET the unpadded base64url of at least \(minimumSecretBytes) random bytes; # comments"
        var keys: [String: SymmetricKey] = [:]
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            var line = raw.prefix { $0 != UInt8(ascii: "#") }
            if line.last == 0x0D { line = line.dropLast() }
            let words = line.split { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if words.isEmpty { continue }
            guard words.count == 2 else {
                throw SecretFileError(.malformed, file: file, problem: "line \(number) has \(words.count) words", allowed: allowed)
            }
            let keyID = String(decoding: words[0], as: UTF8.self)
            guard SignedURLParameters.isKeyID(keyID) else {
                throw SecretFileError(.malformed, file: file, problem: "line \(number): the key id is not valid", allowed: allowed)
            }
            guard keys[keyID] == nil else {
                throw SecretFileError(.malformed, file: file, problem: "line \(number): key id \(keyID) is used twice", allowed: allowed)
            }
            guard var secret = Base64URL.decode(String(decoding: words[1], as: UTF8.self)) else {
                throw SecretFileError(.malformed, file: file, problem: "line \(number): the secret of \(keyID) is not unpadded base64url",
                                      allowed: allowed)
            }
            guard secret.count >= minimumSecretBytes else {
                throw SecretFileError(.malformed, file: file,
                                      problem: "line \(number): the secret of \(keyID) has \(secret.count) bytes", allowed: allowed)
            }
            keys[keyID] = SymmetricKey(bytes: secret)
            for position in secret.indices { secret[position] = 0 }
        }
        guard !keys.isEmpty else {
            throw SecretFileError(.malformed, file: file, problem: "has no key", allowed: allowed)
        }
        return SigningKeyring(keys: keys)
    }

    public var description: String { "SigningKeyring(\(keyIDs.joined(separator: ", ")))" }
}
