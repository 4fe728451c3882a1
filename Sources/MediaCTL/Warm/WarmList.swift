import MediaPolicy
import MediaService

/// The input of `mediactl warm`: request targets, one per line (docs/cli.md, "mediactl warm").
///
/// A line is trimmed of surrounding spaces and tabs; blank lines and lines starting with `#` are skipped.
/// Each target is checked against the policies before anything is sent: it must parse as the service
/// parses it (starts with `/`, no traversal, within the length limits), match a route, and that route's tier
/// must neither be partitioned per credential nor require a bearer token, because a warm list carries no
/// credentials.
public struct WarmList: Sendable, Hashable {
    /// One target and where it was.
    public struct Entry: Sendable, Hashable {
        /// The 1-based line number in the input.
        public var line: Int
        /// The request target, such as `/catalog/a.jpg?w=144`.
        public var target: String

        public init(line: Int, target: String) {
            self.line = line
            self.target = target
        }
    }

    /// The targets, in input order (duplicates kept).
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The entries of `text` (any of `\n`, `\r\n` line ends), unchecked.
    public static func parse(_ text: String) -> WarmList {
        var entries: [Entry] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            let trimmed = String(line.reversed())
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            entries.append(Entry(line: index + 1, target: trimmed))
        }
        return WarmList(entries: entries)
    }

    /// Every problem of the list under `policies`, one message per bad line, such as
    /// `line 3: /receipts/r-1.png: route receipts (tier private) is partitioned per credential, and a warm list carries no credentials`
    /// or `line 4: /nowhere/a.jpg: no route matches`; empty when every
    /// line may be warmed.
    public func problems(policies: PolicySet) -> [String] {
        let router: Router
        do {
            router = try WarmRouter.make(policies.routes.map { ($0.name, $0.mount, $0.origin, $0.tier) })
        } catch {
            return ["the policies' routes are unusable: \(error.context)"]
        }
        var problems: [String] = []
        for entry in entries {
            let where_ = "line \(entry.line): \(entry.target)"
            if entry.target.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
                problems.append("\(where_): contains a space or control character")
                continue
            }
            guard entry.target.hasPrefix("/") else {
                problems.append("\(where_): a path starts with /")
                continue
            }
            let match: RouteMatch
            do {
                match = try router.resolve(entry.target)
            } catch {
                problems.append(error.code == .noRoute ? "\(where_): no route matches"
                                                        : "\(where_): not a valid request target: \(error.context)")
                continue
            }
            guard let tier = policies.tier(named: match.route.tier) else { continue }
            let route = "route \(match.route.name) (tier \(tier.name))"
            if tier.partition == .credential {
                problems.append("\(where_): \(route) is partitioned per credential, and a warm list carries no credentials")
            } else if tier.credentials == .bearerRequired {
                problems.append("\(where_): \(route) requires a bearer token, and a warm list carries no credentials")
            }
        }
        return problems
    }
}
