import MediaCrypto
import MediaSigning
import MediaStorage

/// The install's integrity key, `<state>/keys/integrity.key`: 32 random bytes (mode 0600, in a 0700 `keys/`
/// folder), made by the service's first start on the state directory (``StateKeyFile``), read by
/// `mediactl audit` (``existing(stateDirectory:)``, which never makes it).
///
/// It keys the tags of every `disk` file (so a body swapped by someone who can write `disk/` but cannot read
/// `keys/` is refused as corrupt) and the body digests of `store` and `update` audit records (`bodyDigest`,
/// which `mediactl audit` checks against the files). ``MediaStorage/IntegrityKey`` derives the keys of each
/// use (docs/storage.md, "Integrity"). Deleting or replacing the file makes every disk file of the install
/// unverifiable: the next start removes them as corrupt (audited `evict` `corrupt:bad-checksum`) and they are
/// fetched again. It never leaves the state directory and is never printed, logged, audited or exported.
public enum IntegrityKeyFile {
    /// The key file under a state directory: `keys/integrity.key`.
    public static let relativePath = "keys/integrity.key"

    /// The key of `stateDirectory`, made when missing.
    /// - Throws: ``MediaSigning/SecretFileError`` (an existing file readable or writable by group or others, not
    ///   32 bytes, or a file that cannot be made).
    public static func open(stateDirectory: String) throws(SecretFileError) -> IntegrityKey {
        try key(StateKeyFile.open(stateDirectory: stateDirectory, relativePath: relativePath),
                path: stateDirectory + "/" + relativePath)
    }

    /// The key of `stateDirectory` if it has one (read-only), else `nil`.
    /// - Throws: ``MediaSigning/SecretFileError`` for a file that exists but is refused.
    public static func existing(stateDirectory: String) throws(SecretFileError) -> IntegrityKey? {
        guard let secret = try StateKeyFile.existing(stateDirectory: stateDirectory, relativePath: relativePath) else {
            return nil
        }
        return try key(secret, path: stateDirectory + "/" + relativePath)
    }

    private static func key(_ secret: SymmetricKey, path: String) throws(SecretFileError) -> IntegrityKey {
        do {
            return try IntegrityKey(secret: secret)
        } catch {
            throw SecretFileError(.malformed, file: path, problem: "cannot be used: \(error.context)",
                                  allowed: "32 bytes (made by mediactl)")
        }
    }
}
