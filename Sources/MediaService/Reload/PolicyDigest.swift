import MediaCrypto
import MediaPolicy

/// The SHA-256 that identifies a policy set in the audit log's `policy` records (docs/audit-format.md,
/// "Policy records"): equal sets of files give equal digests wherever the folder lives.
///
/// Canonical bytes hashed, for files (``of(sources:overrides:)``): for each file in byte order of its base
/// name (the part after the last `/`), `file <base name> <byte count>\n`, the file's bytes, `\n`; then for each
/// `--origin` override in command-line order, `origin <route>=<url>\n`. For a set built in code without files
/// (``of(_:)``): `tier <description>\n` per tier in name order, then `route <description>\n` per route in order,
/// Swift's `String(describing:)` of the ``MediaPolicy/Tier`` and ``MediaPolicy/Route`` values (stable within
/// one build, not a format to re-create elsewhere).
public enum PolicyDigest {
    /// Hex SHA-256 (64 lower-case characters) of the canonical bytes of `sources` and `overrides`.
    public static func of(sources: [PolicyLoader.Source], overrides: [(route: String, url: String)] = []) -> String {
        var hasher = SHA256()
        let named = sources.map { (base: baseName($0.name), bytes: $0.bytes) }
            .sorted { $0.base.utf8.lexicographicallyPrecedes($1.base.utf8) }
        for file in named {
            hasher.update("file \(file.base) \(file.bytes.count)\n")
            hasher.update(file.bytes)
            hasher.update("\n")
        }
        for override in overrides { hasher.update("origin \(override.route)=\(override.url)\n") }
        return hasher.finalize().hex
    }

    /// Hex SHA-256 of a set given without its files (see the type's documentation).
    public static func of(_ policies: PolicySet) -> String {
        var hasher = SHA256()
        for name in policies.tiers.keys.sorted() { hasher.update("tier \(String(describing: policies.tiers[name]!))\n") }
        for route in policies.routes { hasher.update("route \(String(describing: route))\n") }
        return hasher.finalize().hex
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }
}
