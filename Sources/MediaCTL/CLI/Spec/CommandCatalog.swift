/// The declarations of every `mediactl` command (docs/cli.md). Help, parsing and
/// docs/cli.md all follow these.
public enum CommandCatalog {
    static let exitCodes =
        "Exit status: 0 ok, 1 violations or failed check, 2 unusable input (unreadable file, bad policy), 64 usage error."

    /// The exit-status line of one command: what 0 and 1 mean for it (`nil`: 1 is not used).
    static func exitCodes(ok: String, failure: String?) -> String {
        "Exit status: 0 \(ok)" + (failure.map { ", 1 \($0)" } ?? "")
            + ", 2 unusable input (unreadable file, bad policy, missing state directory), 64 usage error."
    }

    static let policies = OptionSpec(
        "policies", valueName: "DIR", help: "Policy directory (*.json). Default: ./Policies.")
    static let stateDir = OptionSpec(
        "state-dir", valueName: "DIR",
        help: "State directory. Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl.")
    static let json = OptionSpec("json", help: "Print one JSON document instead of text.")

    /// `mediactl serve`.
    public static let serve = CommandSpec(
        path: ["serve"],
        summary: "Run the media service over HTTP until interrupted.",
        usage: ["mediactl serve [--listen HOST:PORT] [--admin-listen HOST:PORT|off] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]... [--event-loops N] [--access-log PATH|-] [--front ADDR]..."],
        options: [
            OptionSpec(
                "listen", valueName: "HOST:PORT",
                help: "Address to listen on; IPv6 as [::1]:PORT, port 0 picks a free one. Default: 127.0.0.1:8080."),
            OptionSpec(
                "admin-listen", valueName: "HOST:PORT|off",
                help: "Address of the admin listener (/_mediactl/health, /_mediactl/ready, /_mediactl/metrics, purge, reload); off: none. Default: 127.0.0.1:9091."),
            policies, stateDir,
            OptionSpec(
                "origin", valueName: "ROUTE=URL", repeatable: true,
                help: "Replace the origin base URL (http or https) of route ROUTE. Repeatable, once per route."),
            OptionSpec(
                "event-loops", valueName: "N",
                help: "Event-loop threads serving connections, 1 to 256. Default: one per online CPU."),
            OptionSpec(
                "access-log", valueName: "PATH|-",
                help: "Append one JSON line per request to PATH (- for standard output); SIGUSR1 reopens it. Default: none."),
            OptionSpec(
                "front", valueName: "ADDR", repeatable: true,
                help: "Numeric address of a front proxy, exempt from the cap of 256 connections per client address. Repeatable."),
        ],
        notes: [
            "SIGHUP re-reads the policies without a restart (as 'mediactl reload' does); an invalid set keeps the policies in force.",
            exitCodes(ok: "stopped by SIGINT or SIGTERM", failure: "an internal failure (admin token, signal handling)"),
        ])

    /// `mediactl demo`.
    public static let demo = CommandSpec(
        path: ["demo"],
        summary: "Run an embedded origin with the bundled sample images and the default policies, and show every tier.",
        usage: ["mediactl demo [--keep-serving]"],
        options: [OptionSpec("keep-serving", help: "Keep the service running after the walkthrough.")],
        notes: [exitCodes(ok: "every step as expected and the audit clean", failure: "a step or the audit failed")])

    /// `mediactl fetch`.
    public static let fetch = CommandSpec(
        path: ["fetch"],
        summary: "Send one request through the pipeline and show the response and the storage decision.",
        usage: [
            "mediactl fetch PATH [--header 'Name: value']... [--credential-file FILE] [--output FILE] [--json] [--policies DIR] [--state-dir DIR] [--origin ROUTE=URL]..."
        ],
        options: [
            OptionSpec(
                "header", valueName: "'Name: value'", repeatable: true,
                help: "Add a request header field, such as 'Accept: image/webp'. Repeatable."),
            OptionSpec(
                "credential-file", valueName: "FILE",
                help: "Send 'Authorization: Bearer <token>' with the token read from FILE (never from the command line)."),
            OptionSpec("output", valueName: "FILE", help: "Write the response body to FILE."),
            json, policies, stateDir,
            OptionSpec(
                "origin", valueName: "ROUTE=URL", repeatable: true,
                help: "Replace the origin base URL of route ROUTE, as 'serve --origin' does. Repeatable, once per route."),
        ],
        positionals: [PositionalSpec("PATH", help: "Request target starting with '/', such as /catalog/coffee.jpg.")],
        notes: [exitCodes(ok: "a 2xx or 304 answer", failure: "any other answer")])

    /// `mediactl inspect`.
    public static let inspect = CommandSpec(
        path: ["inspect"],
        summary:
            "Show an origin URL's caching headers, parsed freshness, matching route and tier, and what it would store.",
        usage: ["mediactl inspect URL [--credential-file FILE] [--policies DIR] [--origin ROUTE=URL]... [--state-dir DIR]"],
        options: [
            OptionSpec(
                "credential-file", valueName: "FILE",
                help: "Send 'Authorization: Bearer <token>' with the token read from FILE (never from the command line)."),
            policies,
            OptionSpec(
                "origin", valueName: "ROUTE=URL", repeatable: true,
                help: "Replace the origin base URL of route ROUTE, as 'serve --origin' does. Repeatable, once per route."),
            OptionSpec(
                "state-dir", valueName: "DIR",
                help: "For a signed URL: the state directory whose subject key gives its partition. Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl."),
        ],
        positionals: [PositionalSpec("URL", help: "An http:// or https:// origin URL, or a signed URL of the service (its signature is checked, then its origin URL inspected).")],
        notes: [exitCodes(ok: "inspected", failure: "the origin could not be reached")])

    /// `mediactl audit verify`.
    public static let auditVerify = CommandSpec(
        path: ["audit", "verify"],
        summary: "Check the audit log's hash chain.",
        usage: ["mediactl audit verify [--state-dir DIR]"],
        options: [stateDir],
        notes: [exitCodes(ok: "chain intact", failure: "chain broken")])

    /// `mediactl audit prune`.
    public static let auditPrune = CommandSpec(
        path: ["audit", "prune"],
        summary: "Remove the oldest rotated audit segments, keeping a verifiable checkpoint.",
        usage: ["mediactl audit prune --keep-segments N [--state-dir DIR] [--policies DIR]"],
        options: [
            OptionSpec(
                "keep-segments", valueName: "N",
                help: "Rotated segments to keep (the newest), 1 to 1000000. Required."),
            stateDir,
            OptionSpec(
                "policies", valueName: "DIR",
                help: "Policies the removed records are judged by; a record they forbid is never pruned. Default: ./Policies."),
        ],
        notes: [
            "Verifies the segments first and writes the checkpoint (audit/checkpoint.json: where the chain continues; "
                + "audit/checkpoint-NNNNNN.jsonl: the records of the objects still stored); audit and audit verify continue from it. Safe while serve runs; waits for a running audit. "
                + "Copy the segments elsewhere first to keep their records.",
            exitCodes(ok: "pruned (or nothing to prune)", failure: "refused: the segments to remove do not verify or hold records the policies forbid"),
        ])

    /// `mediactl audit`.
    public static let audit = CommandSpec(
        path: ["audit"],
        summary: "Report what was persisted, per tier, and any storage that policy forbids.",
        usage: [
            "mediactl audit [--state-dir DIR]... [--policies DIR] [--json] [--junit FILE] [--html FILE]",
            "mediactl audit verify [--state-dir DIR]",
            "mediactl audit prune --keep-segments N [--state-dir DIR] [--policies DIR]",
        ],
        options: [
            OptionSpec(
                "state-dir", valueName: "DIR", repeatable: true,
                help: "State directory. Repeatable: one per replica, each audited, then the fleet's totals. "
                    + "Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl."),
            policies, json,
            OptionSpec(
                "junit", valueName: "FILE",
                help: "Also write the report as JUnit XML to FILE: a test case per check and tier, a failure per violation."),
            OptionSpec(
                "html", valueName: "FILE",
                help: "Also write the report as one self-contained HTML page to FILE (tables and a chart, no script)."),
        ],
        subcommands: [auditVerify, auditPrune],
        notes: [
            "--junit and --html also write files: stdout (text or --json) and the exit status are unchanged, "
                + "but a file that cannot be written exits 2 (after the report is printed).",
            "With several --state-dir (a fleet, docs/scale-out.md): a report per replica headed by its state directory, "
                + "then the fleet's totals; --json, --junit and --html cover every replica. One unusable replica exits 2.",
            exitCodes(ok: "clean", failure: "violations (a broken chain included) in any replica"),
        ])

    /// `mediactl policy check`.
    public static let policyCheck = CommandSpec(
        path: ["policy", "check"],
        summary: "Validate the policy files.",
        usage: ["mediactl policy check [--policies DIR]"],
        options: [policies],
        notes: [exitCodes(ok: "valid", failure: nil)])

    /// `mediactl policy` (a group: requires `check`).
    public static let policy = CommandSpec(
        path: ["policy"],
        summary: "Work with policy files.",
        usage: ["mediactl policy check [--policies DIR]"],
        subcommands: [policyCheck],
        isRunnable: false,
        notes: [exitCodes])

    /// `mediactl purge`.
    public static let purge = CommandSpec(
        path: ["purge"],
        summary: "Remove stored objects of one route, of one credential's or subject's partition, or all of them.",
        usage: ["mediactl purge (--route NAME | --credential-file FILE | --subject SUB | --all) [--state-dir DIR | --replicas FILE]"],
        options: [
            OptionSpec("route", valueName: "NAME", help: "Purge every object of route NAME."),
            OptionSpec(
                "credential-file", valueName: "FILE",
                help: "Purge the partition of the credential read from FILE (the token is never an argument)."),
            OptionSpec(
                "subject", valueName: "SUB",
                help: "Purge the partition of signed-URL subject SUB (its logout or erasure; docs/signed-urls.md)."),
            OptionSpec("all", help: "Purge every stored object."),
            stateDir,
            OptionSpec(
                "replicas", valueName: "FILE",
                help: "Purge every replica FILE names, in parallel: lines 'ADMIN-URL STATE-DIR-OR-SERVE.JSON' (docs/scale-out.md)."),
        ],
        notes: [
            "Exactly one of --route, --credential-file, --subject and --all is required.",
            "Asks the running 'mediactl serve' of the state directory (its serve.json); with none running, exits 2.",
            exitCodes(ok: "purged", failure: "the service failed the purge (5xx), or a replica of --replicas was not purged"),
        ])

    /// `mediactl reload`.
    public static let reload = CommandSpec(
        path: ["reload"],
        summary: "Re-read the policies of the running service without a restart.",
        usage: ["mediactl reload [--state-dir DIR]"],
        options: [stateDir],
        notes: [
            "Asks the running 'mediactl serve' of the state directory (its serve.json) on its admin listener, as SIGHUP does; "
                + "an invalid policy set is refused, its problems printed as 'policy check' prints them, and the policies in force stay.",
            exitCodes(ok: "the new policies are in force", failure: "the service refused them (invalid policies) or failed the reload"),
        ])

    /// `mediactl warm`.
    public static let warm = CommandSpec(
        path: ["warm"],
        summary: "Fill the running service's cache from a list of paths.",
        usage: ["mediactl warm [--server URL] [--concurrency N] [--policies DIR] [--state-dir DIR] [FILE|-]"],
        options: [
            OptionSpec(
                "server", valueName: "URL",
                help: "The service's base URL, http://HOST:PORT. Default: the listen address in <state-dir>/serve.json."),
            OptionSpec(
                "concurrency", valueName: "N", help: "Requests in flight at once, 1 to 64. Default: 4."),
            OptionSpec(
                "policies", valueName: "DIR",
                help: "Policies telling which routes are partitioned (refused: a list carries no credentials). Default: ./Policies."),
            stateDir,
        ],
        positionals: [
            PositionalSpec(
                "FILE", required: false,
                help: "Request targets, one per line (variants allowed: /catalog/a.jpg?w=144); blank lines and # comments skipped. Default: - (standard input).")
        ],
        notes: [
            "Every line is checked first: a line matching no route, or a route of a partitioned or bearer tier, exits 2 naming it, and nothing is sent.",
            "Progress goes to stderr (a bar on a terminal, a line every 2 s otherwise); the summary to stdout.",
            exitCodes(ok: "every path answered", failure: "a path was refused (status 400 or more) or failed (no answer)"),
        ])

    /// `mediactl sign`.
    public static let sign = CommandSpec(
        path: ["sign"],
        summary: "Print a signed capability URL for a tier with signedURLs (docs/signed-urls.md).",
        usage: ["mediactl sign --keys FILE --kid KID --subject SUB --expires-in SECONDS [--base-url URL] PATH"],
        options: [
            OptionSpec("keys", valueName: "FILE", help: "The keys file (KID SECRET lines), readable by its owner only. Required."),
            OptionSpec("kid", valueName: "KID", help: "The key id to sign with. Required."),
            OptionSpec("subject", valueName: "SUB", help: "The subject, 1 to 128 of A-Z a-z 0-9 . _ -: the partition the URL opens. Required."),
            OptionSpec("expires-in", valueName: "SECONDS", help: "Seconds from now until the URL expires, 1 to 86400. Required."),
            OptionSpec("base-url", valueName: "URL", help: "Print the URL with this http(s)://HOST[:PORT] before the target. Default: the target only."),
        ],
        positionals: [PositionalSpec("PATH", help: "The request target to sign, such as /receipts/r-7731.png?w=144 (its query is signed too).")],
        notes: [exitCodes(ok: "printed", failure: nil)])

    /// `mediactl help`.
    public static let help = CommandSpec(
        path: ["help"],
        summary: "Show the overview, or the help of a command.",
        usage: ["mediactl help [COMMAND [SUBCOMMAND]]"],
        positionals: [
            PositionalSpec("COMMAND", required: false, help: "The command to describe, such as audit."),
            PositionalSpec("SUBCOMMAND", required: false, help: "Its subcommand, such as verify."),
        ])

    /// The root: `mediactl` itself, whose help is the overview.
    public static let root = CommandSpec(
        path: [],
        summary: "mediactl \(MediaCTLMain.version): a privacy-tiered, authenticated media cache.",
        usage: ["mediactl <command> [options]"],
        options: [OptionSpec("version", help: "Print the version and exit.")],
        subcommands: [serve, demo, fetch, inspect, audit, policy, purge, reload, warm, sign, help],
        notes: [
            "Defaults: --policies ./Policies, --state-dir ./.mediactl (or $MEDIACTL_STATE_DIR).",
            exitCodes,
            "Run 'mediactl <command> --help' for the options of a command.",
        ])
}
