import HTTPCaching
import MediaPolicy
import MediaAudit
import MediaCrypto
import MediaStorage

/// The cache keys of a request: primary key (the tier and the upstream URL, RFC 9111 §4), the partition (keyed
/// digest of the credential, or none) and the secondary key of a stored response's `Vary` (§4.1).
///
/// A *group* key joins the primary key and the partition (all stored responses a request may select
/// from); a *store* key adds the secondary key (one stored response). Its hex SHA-256 names the file
/// and is the audit `key`. Separator: U+001F, which cannot occur in a URL or a hex digest.
enum CacheKey {
    static let separator: Character = "\u{1F}"

    /// Separates the tier from the URL in a primary key: U+001D, which cannot occur in a tier name or a URL.
    static let tierSeparator: Character = "\u{1D}"

    /// The primary key of a request on `tier`: the tier's name, U+001D, the upstream URL. Scoping the key
    /// by tier keeps two routes of different tiers that share an origin URL apart: their stored responses,
    /// origin exchanges (single-flight), variants and audit keys never mix (a `metadata: strip` tier must
    /// never be handed a `keep` tier's bytes).
    static func primary(tier: String, url: String) -> String {
        joined(tier, url, separator: 0x1D)
    }

    /// Appended to a `metadata: strip` tier's name in its key scope.
    static let stripScopeSuffix = "/strip"

    /// The scope of a tier's keys: its name, plus ``stripScopeSuffix`` when it strips metadata, so a change of
    /// the `metadata` rule changes every key and nothing stored under the other rule is ever served
    /// (``UnownedTierFolders/dropUnscopedKeys(runtimes:auditor:)`` removes it at start). Tier names are
    /// `[a-z0-9-]`, so no name equals another's scope.
    static func scope(of tier: Tier) -> String {
        tier.metadata == .strip ? tier.name + stripScopeSuffix : tier.name
    }

    static func group(primary: String, partition: String?) -> String {
        joined(primary, partition ?? "-")
    }

    static func store(group: String, secondary: SecondaryKey) -> String {
        joined(group, secondary.canonicalForm)
    }

    /// `head + separator + tail` written into one buffer (one allocation instead of two concatenations).
    static func joined(_ head: String, _ tail: String, separator: UInt8 = 0x1F) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.utf8.count + 1 + tail.utf8.count)
        bytes.appendUTF8(head)
        bytes.append(separator)
        bytes.appendUTF8(tail)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The query of the upstream URL in a store key (without `?`; a variant's parameters, after U+001E, are not part
    /// of it), or `nil` when the URL has none.
    static func query(ofStoreKey key: String) -> Substring? {
        guard let start = key.firstIndex(of: tierSeparator) else { return nil }
        let rest = key[key.index(after: start)...]
        let url = rest.prefix { $0 != separator && $0 != "\u{1E}" }
        guard let mark = url.firstIndex(of: "?") else { return nil }
        return url[url.index(after: mark)...]
    }

    static func group(ofStoreKey key: String) -> String {
        guard let last = key.lastIndex(of: separator) else { return key }
        return String(key[..<last])
    }

    static func digest(_ storeKey: String) -> String { KeyDigest.hex(of: storeKey) }

    /// Separates a variant's parameters from its source's URL in its primary key: U+001E, which cannot occur
    /// in a URL, a hex digest or the parameters.
    static let derivedSeparator: Character = "\u{1E}"

    /// The primary key of a derived image: the source's URL (its primary key), U+001E, and the normalised
    /// parameters with the format rule (``MediaTransform/VariantSpec/keyText``). Its group adds the source's
    /// partition, so a variant is looked up in its source's partition only.
    static func variantPrimary(source: String, keyText: String) -> String {
        source + String(derivedSeparator) + keyText
    }

    /// The group key (URL + partition) of the source a variant's store key was derived from, or `nil` when
    /// `key` is not a variant's.
    static func sourceGroup(ofVariantStoreKey key: String) -> String? {
        guard let mark = key.firstIndex(of: derivedSeparator) else { return nil }
        let group = group(ofStoreKey: key)
        guard let split = group.lastIndex(of: separator) else { return nil }
        return joined(String(key[..<mark]), String(group[group.index(after: split)...]))
    }

    /// ``digest(_:)`` as an audit record's `key`: the same 64 hex characters, built from the digest's bytes
    /// without re-validating its text.
    static func auditDigest(_ storeKey: String) -> AuditDigest { AuditDigest(SHA256.hash(storeKey)) }
}
