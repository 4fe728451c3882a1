import MediaPolicy

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
public enum PolicyCheckCommand {
    /// Runs the command. Returns ``ExitCode/success`` or ``ExitCode/unusableInput``.
    public static func run(_ options: PolicyCheckOptions, context: CommandContext) -> ExitCode {
        let policies: PolicySet
        do {
            policies = try load(options.policiesDirectory, context: context, failure: "policy check failed")
        } catch {
            return context.fail(error)
        }
        context.stdout.write(summary(policies, directory: options.policiesDirectory))
        return .success
    }

    /// Loads `directory`; on problems, prints each as a diagnostic and throws the closing line.
    /// - Throws: ``CommandError`` `invalid-policies` (exit 2): `<failure>: N problem(s) in <directory>`.
    static func load(_ directory: String, context: CommandContext, failure: String) throws(CommandError)
        -> PolicySet
    {
        do {
            return try PolicyLoader().load(directory: directory)
        } catch {
            for problem in error.errors { context.diagnose(problem.description) }
            let count = error.errors.count
            throw CommandError(
                .invalidPolicies, "\(failure): \(count) problem\(count == 1 ? "" : "s") in \(directory)",
                exitCode: .unusableInput)
        }
    }

    /// The success text (every line ends with `\n`): tiers by name, routes in file order.
    static func summary(_ policies: PolicySet, directory: String) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var out =
            "policies ok: \(count(policies.files.count, "file")), \(count(policies.tiers.count, "tier")), "
            + "\(count(policies.routes.count, "route")) in \(directory)\n"
        for file in policies.files { out += "  file  \(file)\n" }
        for name in policies.tiers.keys.sorted() {
            let tier = policies.tiers[name]!
            out +=
                "  tier  \(name): storage \(tier.storage.rawValue), cache \(tier.cache.rawValue), "
                + "credentials \(tier.credentials.rawValue), partition \(tier.partition.rawValue), maxTTL \(tier.maxTTL)\n"
        }
        for route in policies.routes {
            out +=
                "  route \(route.name): \(route.mount) -> \(route.origin) (tier \(route.tier), "
                + "methods \(route.methods.rawValue))\n"
        }
        return out
    }
}
