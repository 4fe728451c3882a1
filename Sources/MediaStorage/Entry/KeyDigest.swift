import MediaCrypto

/// The hex SHA-256 of a cache key: file names and audit `key` fields.
public enum KeyDigest {
    /// 64 lower-case hex characters: SHA-256 (FIPS 180-4) of the key's UTF-8 bytes.
    public static func hex(of key: String) -> String { SHA256.hash(key).hex }

    /// Whether `name` is 64 lower-case hex characters.
    static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        return utf8.count == 64 && utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
