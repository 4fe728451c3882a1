import MediaAudit
import MediaCore
import MediaCrypto
import MediaSigning

/// The audit log's signing key, `<state>/keys/audit-signing.key`: a 32-byte Ed25519 seed (mode 0600, in a 0700 `keys/`
/// folder), made by the service's first start on the state directory (``StateKeyFile``), read by `mediactl audit`
/// (``existing(stateDirectory:)``, which never makes it). It signs the log's checkpoints (C2SP tlog-checkpoint,
/// ``MediaAudit/TreeCheckpoint``); `mediactl audit public-key` prints its verifier key, which auditors keep to check
/// them. The key's name, and the log's origin line, is `mediactl/audit/<16 hex digits of SHA-256 of the public key>`,
/// unique to the install.
public enum AuditSigningKeyFile {
    /// The key file under a state directory: `keys/audit-signing.key`.
    public static let relativePath = "keys/audit-signing.key"

    /// The signer of `stateDirectory`, its key made when missing.
    /// - Throws: ``MediaSigning/SecretFileError`` (a file readable or writable by group or others, not 32 bytes, or
    ///   one that cannot be made).
    public static func open(stateDirectory: String) throws(SecretFileError) -> NoteSigner {
        try signer(StateKeyFile.open(stateDirectory: stateDirectory, relativePath: relativePath),
                   path: stateDirectory + "/" + relativePath)
    }

    /// The signer of `stateDirectory` if it has a key (read-only), else `nil`.
    /// - Throws: ``MediaSigning/SecretFileError`` for a file that exists but is refused.
    public static func existing(stateDirectory: String) throws(SecretFileError) -> NoteSigner? {
        guard let secret = try StateKeyFile.existing(stateDirectory: stateDirectory, relativePath: relativePath) else {
            return nil
        }
        return try signer(secret, path: stateDirectory + "/" + relativePath)
    }

    /// The origin line of the log whose key has `publicKey`.
    public static func origin(publicKey: [UInt8]) -> String {
        "mediactl/audit/" + Hex.encode(SHA256.hash(publicKey).bytes.prefix(8))
    }

    private static func signer(_ secret: SymmetricKey, path: String) throws(SecretFileError) -> NoteSigner {
        do {
            let key = try secret.withUnsafeBytes { bytes in try Ed25519SigningKey(seed: Array(bytes)) }
            return try NoteSigner(name: origin(publicKey: key.publicKey), key: key)
        } catch {
            throw SecretFileError(.malformed, file: path, problem: "cannot be used: \(error)",
                                  allowed: "32 bytes (made by mediactl)")
        }
    }
}
