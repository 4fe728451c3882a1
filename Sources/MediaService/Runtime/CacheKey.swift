import HTTPCaching
import MediaStorage

/// The cache keys of a request: primary key (the upstream URL, RFC 9111 §4), the partition (keyed
/// digest of the credential, or none) and the secondary key of a stored response's `Vary` (§4.1).
///
/// A *group* key joins the primary key and the partition (all stored responses a request may select
/// from); a *store* key adds the secondary key (one stored response). Its hex SHA-256 names the file
/// and is the audit `key`. Separator: U+001F, which cannot occur in a URL or a hex digest.
enum CacheKey {
    static let separator: Character = "\u{1F}"

    static func group(primary: String, partition: String?) -> String {
        primary + String(separator) + (partition ?? "-")
    }

    static func store(group: String, secondary: SecondaryKey) -> String {
        group + String(separator) + secondary.canonicalForm
    }

    static func group(ofStoreKey key: String) -> String {
        guard let last = key.lastIndex(of: separator) else { return key }
        return String(key[..<last])
    }

    static func digest(_ storeKey: String) -> String { KeyDigest.hex(of: storeKey) }
}
