import MediaCore

extension PolicyFileDecoder {
    /// Reports tier keys that contradict each other (docs/policy-format.md, "Contradictions").
    /// Runs only on a tier whose keys were each valid.
    mutating func checkContradictions(_ tier: Tier, keys: [String: JSONValue], at path: String) {
        func at(_ key: String) -> String { "\(path).\(key)" }
        func quoted(_ text: String) -> String { JSONValue.quote(text) }

        // A generic tier (contentTypes ["*/*"]) with credentials "forward" is the RFC 9111 conformance mode:
        // RFC 9111 §3.5 decides what a shared cache may store from a request with Authorization.
        let conformanceMode = !tier.validatesImages && tier.credentials == .forward
        if tier.credentials.forwardsCredentials, tier.cache == .shared, tier.partition == .none, !conformanceMode {
            report(.contradiction, at("credentials"), value: .string(tier.credentials.rawValue),
                   problem: "\(quoted(tier.credentials.rawValue)) sends credentials to the origin, but the tier is a shared cache with partition \"none\": one user's response could be served to another",
                   allowed: "partition \"credential\" with these credentials, credentials \"strip\" or \"refuse\", or contentTypes [\"*/*\"] with credentials \"forward\" (conformance mode, RFC 9111 §3.5)")
        }
        if tier.partition == .credential, !tier.credentials.forwardsCredentials, tier.signedURLs == nil {
            report(.contradiction, at("partition"), value: .string("credential"),
                   problem: "\"credential\" needs credentials that reach the origin, but credentials is \(quoted(tier.credentials.rawValue))",
                   allowed: "credentials \"bearer-required\" or \"forward\" with partition \"credential\", signedURLs (the subject is the partition), or partition \"none\"")
        }
        checkSigningContradictions(tier, at: path)
        if tier.animation != nil, tier.variants == nil {
            report(.contradiction, at("animation"), value: keys["animation"],
                   problem: "animation budgets derived images, but the tier has no variants",
                   allowed: "animation together with variants, or no animation")
        }
        if tier.cache == .private, tier.partition == .none {
            report(.contradiction, at("cache"), value: .string("private"),
                   problem: "\"private\" is a per-user cache, but partition is \"none\": it would be shared between users",
                   allowed: "cache \"private\" with partition \"credential\", or cache \"shared\"")
        }
        if tier.partition == .credential, tier.storage == .disk {
            report(.contradiction, at("storage"), value: .string("disk"),
                   problem: "\"disk\" would write per-user (partitioned) responses as plaintext files",
                   allowed: "encrypted-disk, memory or none with partition \"credential\"")
        }
        if let downstream = tier.downstreamCacheControl, let names = PolicyText.directiveNames(downstream) {
            if tier.storage == .none, !names.contains("no-store") {
                report(.contradiction, at("downstreamCacheControl"), value: .string(downstream),
                       problem: "\(quoted(downstream)) lets clients store what the tier never stores",
                       allowed: "a value with no-store when storage is \"none\"")
            } else if tier.partition == .credential,
                      names.contains("public") || names.contains("s-maxage")
                        || !(names.contains("private") || names.contains("no-store")) {
                report(.contradiction, at("downstreamCacheControl"), value: .string(downstream),
                       problem: "\(quoted(downstream)) lets shared caches downstream store per-user responses",
                       allowed: "a value with private or no-store, and without public or s-maxage, when partition is \"credential\"")
            }
        }
        if tier.storage == .none, tier.serveStaleOnError > 0 {
            report(.contradiction, at("serveStaleOnError"), value: keys["serveStaleOnError"],
                   problem: "\(tier.serveStaleOnError) has no effect: storage is \"none\", nothing is kept to serve stale",
                   allowed: "0 when storage is \"none\"")
        }
        if tier.storage != .encryptedDisk, let value = keys["keyLifetime"] {
            report(.contradiction, at("keyLifetime"), value: value,
                   problem: "\(tier.keyLifetime) has no effect: storage is \"\(tier.storage.rawValue)\", only encrypted-disk objects are sealed under data keys",
                   allowed: "keyLifetime only when storage is \"encrypted-disk\"")
        }
        if !tier.validatesImages, tier.variants != nil {
            report(.contradiction, at("variants"), value: keys["variants"].map { _ in .string("{…}") },
                   problem: "variants are derived from images, but contentTypes [\"*/*\"] turns image validation off",
                   allowed: "variants only on a tier with image contentTypes")
        }
        if tier.validatesImages, tier.setCookie == .store {
            report(.contradiction, at("setCookie"), value: .string("store"),
                   problem: "\"store\" keeps origin cookies, but an image tier never passes them to its clients",
                   allowed: "setCookie \"store\" only when contentTypes is [\"*/*\"]")
        }
        if !tier.validatesImages, tier.metadata == .strip {
            report(.contradiction, at("metadata"), value: .string("strip"),
                   problem: "\"strip\" removes image metadata, but contentTypes [\"*/*\"] turns image validation off",
                   allowed: "metadata \"keep\" when contentTypes is [\"*/*\"]")
        }
        if tier.variants != nil, let version = tier.versionParameter, Tier.variantParameterNames.contains(version) {
            report(.contradiction, at("versionParameter"), value: .string(version),
                   problem: "\(quoted(version)) is also a variant parameter",
                   allowed: "a name other than " + Tier.variantParameterNames.joined(separator: ", ") + " on a tier with variants")
        }
        if tier.unversionedMaxTTL != nil, tier.versionParameter == nil {
            report(.contradiction, at("unversionedMaxTTL"), value: keys["unversionedMaxTTL"],
                   problem: "\(tier.unversionedMaxTTL ?? 0) needs versionParameter, which is not set",
                   allowed: "unversionedMaxTTL only together with versionParameter")
        }
    }

    /// `signedURLs` and `cors` against the other tier keys (docs/signed-urls.md).
    private mutating func checkSigningContradictions(_ tier: Tier, at path: String) {
        func at(_ key: String) -> String { "\(path).\(key)" }
        if let signed = tier.signedURLs {
            if tier.partition != .credential {
                report(.contradiction, at("signedURLs"), value: .string("{…}"),
                       problem: "a signed URL opens its subject's partition, but partition is \"none\": every subject would share one cache",
                       allowed: "partition \"credential\" with signedURLs")
            }
            if !signed.required, tier.credentials != .bearerRequired {
                report(.contradiction, at("signedURLs.required"), value: .bool(false),
                       problem: "false accepts bearer tokens too, but credentials is \(JSONValue.quote(tier.credentials.rawValue))",
                       allowed: "required false only with credentials \"bearer-required\"; else required true")
            }
            if signed.required, tier.credentials.forwardsCredentials {
                report(.contradiction, at("credentials"), value: .string(tier.credentials.rawValue),
                       problem: "\(JSONValue.quote(tier.credentials.rawValue)) accepts credentials, but signedURLs.required is true: only signed URLs are accepted",
                       allowed: "credentials \"strip\" or \"refuse\" with signedURLs.required true, or signedURLs.required false with \"bearer-required\"")
            }
        }
        if tier.forwardInterim, tier.validatesImages {
            report(.contradiction, at("forwardInterim"), value: .bool(true),
                   problem: "true forwards an origin's interim responses, but an image tier answers with the final image or a problem only",
                   allowed: "forwardInterim true only when contentTypes is [\"*/*\"]")
        }
        if tier.cors != nil, !tier.validatesImages {
            report(.contradiction, at("cors"), value: .string("{…}"),
                   problem: "cors answers cross-origin reads of images, but contentTypes [\"*/*\"] passes the origin's own CORS fields through",
                   allowed: "cors only on a tier with image contentTypes")
        }
    }
}
