import MediaPolicy
import MediaService
import MediaTransform

/// `mediactl policy check [--policies DIR]`: loads the policy directory with ``PolicyLoader`` and
/// prints a summary (exit 0), or every problem (exit 2).
///
/// Success, on stdout:
/// ```
/// policies ok: 1 file, 4 tiers, 4 routes in ./Policies
///   file  ./Policies/default.json
///   tier  avatar: storage disk, cache shared, credentials strip, partition none, maxTTL 31536000
///   route avatars: /avatars/ -> http://127.0.0.1:8081/avatars/ (tier avatar, methods read)
/// ```
/// Failure, on stderr: one `mediactl: <PolicyError description>` line per problem (file, key path,
/// problem, allowed values), then `mediactl: policy check failed: N problem(s) in DIR`.
public struct PolicyCheckCommand: MediaCommand {
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String = CommandDefaults.policiesDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["policy", "check"],
        summary: "Validate the policy files.",
        arguments: [.policies(\.policiesDirectory)],
        notes: [CommandTree.exitCodes(ok: "valid", failure: nil)],
        defaults: { Self() })

    /// Runs the command. Returns ``ExitCode/success`` or ``ExitCode/unusableInput``.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        let loaded: ServiceSetup.LoadedPolicies
        do {
            // Read once, as serve reads them: the digest is the one serve (without --origin) records in its
            // audit log's policy records, over the very bytes validated here.
            loaded = try Self.loadWithDigest(policiesDirectory, context: context, failure: "policy check failed")
        } catch {
            return context.fail(error)
        }
        context.stdout.write(Self.summary(loaded.policies, directory: policiesDirectory, digest: loaded.digest))
        for warning in Self.warnings(loaded.policies) { context.diagnose(warning) }
        return .success
    }

    /// ``load(_:context:failure:)`` with the set's digest (``ServiceSetup/readPolicies(_:overrides:)``, no overrides).
    /// - Throws: as ``load(_:context:failure:)``.
    static func loadWithDigest(_ directory: String, context: CommandContext, failure: String) throws(CommandError)
        -> ServiceSetup.LoadedPolicies
    {
        switch ServiceSetup.readPolicies(directory, overrides: []) {
        case .success(let loaded): return loaded
        case .failure(let list): throw diagnosed(list, directory: directory, context: context, failure: failure)
        }
    }

    /// Loads `directory`; on problems, prints each as a diagnostic and throws the closing line.
    /// - Throws: ``CommandError`` `invalid-policies` (exit 2): `<failure>: N problem(s) in <directory>`.
    static func load(_ directory: String, context: CommandContext, failure: String) throws(CommandError)
        -> PolicySet
    {
        do {
            let policies = try PolicyLoader().load(directory: directory)
            // Keys files and origin tokens must be readable by their owner only (docs/signed-urls.md).
            _ = try PolicySecrets.load(for: policies)
            return policies
        } catch {
            throw diagnosed(error, directory: directory, context: context, failure: failure)
        }
    }

    /// Prints each problem of `list` as a diagnostic; returns the closing line `<failure>: N problem(s) in <directory>`.
    private static func diagnosed(_ list: PolicyErrorList, directory: String, context: CommandContext, failure: String)
        -> CommandError
    {
        for problem in list.errors { context.diagnose(problem.description) }
        let count = list.errors.count
        return CommandError(
            .invalidPolicies, "\(failure): \(count) problem\(count == 1 ? "" : "s") in \(directory)",
            exitCode: .unusableInput)
    }

    /// The success text (every line ends with `\n`): tiers by name, routes in file order.
    /// - Parameter digest: the set's hex SHA-256, printed as `  sha256 <hex>` after the files; `nil` prints none.
    static func summary(_ policies: PolicySet, directory: String, digest: String? = nil) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var out =
            "policies ok: \(count(policies.files.count, "file")), \(count(policies.tiers.count, "tier")), "
            + "\(count(policies.routes.count, "route")) in \(directory)\n"
        for file in policies.files { out += "  file  \(file)\n" }
        if let digest { out += "  sha256 \(digest)\n" }
        for name in policies.tiers.keys.sorted() {
            let tier = policies.tiers[name]!
            out +=
                "  tier  \(name): storage \(tier.storage.rawValue), cache \(tier.cache.rawValue), "
                + "credentials \(tier.credentials.rawValue), partition \(tier.partition.rawValue), maxTTL \(tier.maxTTL)"
                + (tier.metadata == .strip ? ", metadata strip" : "") + "\n"
            if let variants = tier.variants { out += "        variants: " + variantSummary(variants) + "\n" }
            if let signed = tier.signedURLs {
                out += "        signedURLs: keys \(signed.keysPath), maxLifetime \(signed.maxLifetime), required \(signed.required)\n"
            }
            if let cors = tier.cors { out += "        cors: " + corsSummary(cors) + "\n" }
            if !tier.ignoredQueryParameters.isEmpty || !tier.passQueryParameters.isEmpty {
                out += "        query: ignored " + (tier.ignoredQueryParameters.isEmpty ? "none" : tier.ignoredQueryParameters.joined(separator: " "))
                    + ", passed " + (tier.passQueryParameters.isEmpty ? "none" : tier.passQueryParameters.joined(separator: " ")) + "\n"
            }
            if !tier.errorTTL.isEmpty {
                out += "        errorTTL: " + Tier.errorTTLKeys.compactMap { key in tier.errorTTL[key].map { "\(key) \($0) s" } }
                    .joined(separator: ", ") + "\n"
            }
            if let tagHeader = tier.tagHeader { out += "        tagHeader: \(tagHeader)\n" }
            if !tier.forwardRequestHeaders.isEmpty {
                out += "        forwardRequestHeaders: " + tier.forwardRequestHeaders.joined(separator: " ") + "\n"
            }
        }
        for route in policies.routes {
            out +=
                "  route \(route.name): \(route.mount) -> \(route.origin) (tier \(route.tier), "
                + "methods \(route.methods.rawValue))\n"
            if let authorization = route.originAuthorization {
                out += "        originAuthorization: bearerFile \(authorization.bearerPath)\n"
            }
            if let header = route.subjectHeader { out += "        subjectHeader: \(header)\n" }
            if let cors = route.cors { out += "        cors: " + corsSummary(cors) + "\n" }
        }
        if policies.tiers.values.contains(where: { $0.variants != nil }) {
            out += libvipsLine(policies, unavailable: VipsRuntime.unavailable)
        }
        return out
    }

    /// The summary's last line when a tier declares variants: the libvips version and what it saves
    /// (``avifNote(_:canSaveAVIF:canSaveJXL:)``), or, when libvips cannot be opened here (`unavailable`,
    /// ``MediaTransform/VipsRuntime/unavailable``), why, and that `serve` would refuse these tiers.
    static func libvipsLine(_ policies: PolicySet, unavailable: String?) -> String {
        if let unavailable { return "  \(unavailable): serve refuses tiers that declare variants here\n" }
        return "  libvips \(VipsRuntime.version): "
            + avifNote(policies, canSaveAVIF: VipsRuntime.canSaveAVIF, canSaveJXL: VipsRuntime.canSaveJXL) + "\n"
    }

    /// The warnings printed on stderr after the summary (exit status stays 0), one per forwarded field of a storing
    /// image tier: the origin sees the field, but a stored response is keyed on it (RFC 9111 §4.1) only when the
    /// origin's answer lists it in `Vary`; otherwise one client's answer is served to the others.
    /// `warning: tier public forwards Accept-Language to its origin: unkeyed unless the origin's answers list it in Vary`.
    static func warnings(_ policies: PolicySet) -> [String] {
        policies.tiers.keys.sorted().flatMap { name -> [String] in
            let tier = policies.tiers[name]!
            guard tier.validatesImages, tier.storage != .none else { return [] }
            return tier.forwardRequestHeaders.map {
                "warning: tier \(name) forwards \($0) to its origin: unkeyed unless the origin's answers list it in Vary"
            }
        }
    }

    /// `widths 72 144 288 576 1152, formats jpeg webp avif png, maxDpr 3, quality 80, maxOutputPixels 1327104, maxAVIFWidth 576`.
    static func variantSummary(_ variants: Tier.Variants) -> String {
        var parts = ["widths " + variants.widths.map(String.init).joined(separator: " ")]
        if let heights = variants.heights { parts.append("heights " + heights.map(String.init).joined(separator: " ")) }
        parts.append("formats " + variants.formats.joined(separator: " "))
        parts.append("maxDpr \(variants.maxDpr)")
        if let qualities = variants.qualities {
            parts.append("quality " + Tier.Variants.formatNames.compactMap { name in qualities[name].map { "\(name) \($0)" } }
                .joined(separator: " ") + (qualities.count < variants.formats.count ? " other \(variants.quality)" : ""))
        } else {
            parts.append("quality \(variants.quality)")
        }
        parts.append("maxOutputPixels \(variants.outputPixelCap)")
        if variants.formats.contains("avif") { parts.append("maxAVIFWidth \(variants.maxAVIFWidth)") }
        if variants.formats.contains("avif") && variants.avifEffort != 2 { parts.append("avifEffort \(variants.avifEffort)") }
        if variants.clientHints { parts.append("clientHints") }
        if !variants.clientProfiles.isEmpty {
            parts.append("profiles " + variants.clientProfiles.keys.sorted().map { name in
                name + " " + variants.clientProfiles[name]!.joined(separator: ">")
            }.joined(separator: ", "))
        }
        return parts.joined(separator: ", ")
    }

    /// `allowOrigins https://app.example.com, maxAge 600, allowAuthorization true`.
    static func corsSummary(_ cors: CORSPolicy) -> String {
        "allowOrigins " + cors.allowOrigins.joined(separator: " ") + ", maxAge \(cors.maxAge), allowAuthorization \(cors.allowAuthorization)"
    }

    /// Whether AVIF (and JPEG XL) can be written, and what the tiers that declare AVIF get when it cannot.
    static func avifNote(_ policies: PolicySet, canSaveAVIF: Bool, canSaveJXL: Bool = true) -> String {
        let declaring = policies.tiers.keys.sorted().filter { policies.tiers[$0]?.variants?.formats.contains("avif") == true }
        let jxl = canSaveJXL ? ", jxl" : ""
        if canSaveAVIF { return "saves jpeg, webp, avif, png" + jxl }
        guard !declaring.isEmpty else { return "saves jpeg, webp, png\(jxl) (no AVIF encoder)" }
        return "cannot save AVIF: fmt=avif and fmt=auto fall back to webp on tier\(declaring.count == 1 ? "" : "s") "
            + declaring.joined(separator: ", ")
    }
}
