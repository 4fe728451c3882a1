import MediaCore

/// Merges decoded policy files and runs the cross-file checks.
struct PolicyMerger {
    private struct PlacedRoute {
        var file: String
        var draft: PolicyFileDecoder.RouteDraft
        var location: String { "\(file) routes[\(draft.index)]" }
    }

    let directory: String
    var errors: [PolicyError] = []
    private var files: [String] = []
    private var tierFiles: [(file: String, name: String, tier: Tier?)] = []
    private var routes: [PlacedRoute] = []

    init(directory: String) {
        self.directory = directory
    }

    mutating func add(_ decoder: PolicyFileDecoder) {
        files.append(decoder.file)
        errors += decoder.errors
        for entry in decoder.tiers { tierFiles.append((decoder.file, entry.name, entry.tier)) }
        for draft in decoder.routes { routes.append(PlacedRoute(file: decoder.file, draft: draft)) }
    }

    /// The merged policy, or every error.
    mutating func finish() throws(PolicyErrorList) -> PolicySet {
        var definedIn: [String: String] = [:]
        var tiers: [String: Tier] = [:]
        for entry in tierFiles {
            if let first = definedIn[entry.name] {
                errors.append(PolicyError(
                    .duplicateTier, file: entry.file, keyPath: "tiers.\(entry.name)", value: nil,
                    problem: "tier \(JSONValue.quote(entry.name)) is already defined in \(first)",
                    allowed: "each tier defined in one file"))
                continue
            }
            definedIn[entry.name] = entry.file
            if let tier = entry.tier { tiers[entry.name] = tier }
        }
        let tierNames = definedIn.keys.sorted()
        var result: [Route] = []
        for (position, placed) in routes.enumerated() {
            let draft = placed.draft
            let path = "routes[\(draft.index)]"
            var valid = draft.isComplete
            if let name = draft.name, let earlier = routes[..<position].first(where: { $0.draft.name == name }) {
                errors.append(PolicyError(
                    .duplicateRoute, file: placed.file, keyPath: "\(path).name", value: JSONValue.quote(name),
                    problem: "\(JSONValue.quote(name)) is already the name of \(earlier.location)",
                    allowed: "a route name used once across all policy files"))
                valid = false
            }
            if let tier = draft.tier, definedIn[tier] == nil {
                let hint = KeySuggestion.hint(for: tier, in: tierNames)
                errors.append(PolicyError(
                    .unknownTier, file: placed.file, keyPath: "\(path).tier", value: JSONValue.quote(tier),
                    problem: "\(JSONValue.quote(tier)) is not a defined tier\(hint)",
                    allowed: tierNames.isEmpty ? "a tier defined in any policy file (none is)" : tierNames.joined(separator: ", ")))
                valid = false
            }
            if let mount = draft.mount,
               let earlier = routes[..<position].first(where: { other in
                   guard let otherMount = other.draft.mount else { return false }
                   return mount.hasPrefix(otherMount) || otherMount.hasPrefix(mount)
               }) {
                let otherMount = earlier.draft.mount ?? ""
                let otherName = earlier.draft.name.map { " of route \(JSONValue.quote($0))" } ?? ""
                errors.append(PolicyError(
                    .overlappingMount, file: placed.file, keyPath: "\(path).mount", value: JSONValue.quote(mount),
                    problem: "\(JSONValue.quote(mount)) overlaps \(JSONValue.quote(otherMount))\(otherName) (\(earlier.location))",
                    allowed: "a mount that is not a prefix of, and does not start with, another route's mount"))
                valid = false
            }
            if let name = draft.tier, let tier = tiers[name] {
                valid = checkSigning(draft, tier: tier, file: placed.file, path: path) && valid
            }
            if valid, let name = draft.name, let mount = draft.mount, let origin = draft.origin, let tier = draft.tier {
                result.append(Route(name: name, mount: mount, origin: origin, tier: tier, methods: draft.methods,
                                    targetedCacheControl: draft.targetedCacheControl,
                                    originAuthorization: draft.originAuthorization, subjectHeader: draft.subjectHeader,
                                    cors: draft.cors, file: placed.file))
            }
        }
        if routes.isEmpty, errors.isEmpty {
            errors.append(PolicyError(
                .noRoutes, file: directory, keyPath: "routes", value: nil, problem: "no policy file defines a route",
                allowed: "at least one route in any policy file"))
        }
        guard errors.isEmpty else { throw PolicyErrorList(errors) }
        return PolicySet(tiers: tiers, routes: result, files: files)
    }

    /// A route's `originAuthorization`, `subjectHeader` and `cors` against its tier; `false` after reporting.
    private mutating func checkSigning(_ draft: PolicyFileDecoder.RouteDraft, tier: Tier, file: String, path: String) -> Bool {
        var valid = true
        if tier.signedURLs == nil {
            for (key, present) in [("originAuthorization", draft.originAuthorization != nil), ("subjectHeader", draft.subjectHeader != nil)]
            where present {
                errors.append(PolicyError(
                    .contradiction, file: file, keyPath: "\(path).\(key)", value: nil,
                    problem: "\(key) applies to signed requests, but tier \(JSONValue.quote(tier.name)) has no signedURLs",
                    allowed: "\(key) only on a route whose tier has signedURLs"))
                valid = false
            }
        }
        if draft.cors != nil, !tier.validatesImages {
            errors.append(PolicyError(
                .contradiction, file: file, keyPath: "\(path).cors", value: "{…}",
                problem: "cors answers cross-origin reads of images, but tier \(JSONValue.quote(tier.name)) has contentTypes [\"*/*\"]",
                allowed: "cors only on a route whose tier has image contentTypes"))
            valid = false
        }
        return valid
    }
}
