import Foundation
import MediaTestSupport

/// One end-to-end world: a real nginx origin, a policies folder whose routes point at it, a state
/// directory, and `mediactl serve` on a free loopback port. ``tearDown()`` stops everything
/// (call it in a `defer`).
final class ServeEnvironment: @unchecked Sendable {
    /// A route of the generated policy file: `<mount>` → `<origin>/<originPath>` on `tier`.
    struct Route {
        var name: String
        var mount: String
        var originPath: String
        var tier: String
    }

    /// The routes every environment has: the four default tiers plus `/hostile/` on the public tier.
    static let defaultRoutes = [
        Route(name: "catalog", mount: "/catalog/", originPath: "/catalog/", tier: "public"),
        Route(name: "avatars", mount: "/avatars/", originPath: "/avatars/", tier: "avatar"),
        Route(name: "receipts", mount: "/receipts/", originPath: "/receipts/", tier: "private"),
        Route(name: "one-time", mount: "/one-time/", originPath: "/one-time/", tier: "no-store"),
        Route(name: "hostile", mount: "/hostile/", originPath: "/hostile/", tier: "public"),
    ]

    let origin: NginxOrigin
    /// The temp folder holding `policies/` and `state/`.
    let root: URL
    let policiesDirectory: URL
    let stateDirectory: URL
    private(set) var serve: MediactlProcess?
    /// The standard error of the last serve ``stop()`` stopped.
    private(set) var serveStderr: String?

    /// Starts nginx (with the extra config) and writes the policy file; `mediactl serve` starts with ``start()``.
    /// - Parameter policy: the policy file for an origin base URL; default ``policyJSON(originBase:routes:)``
    ///   with the default routes and `extraRoutes`.
    init(extraRoutes: [Route] = [], originServerConfig: String = "", originHTTPConfig: String = "",
         policy: ((String) throws -> String)? = nil) throws {
        origin = try NginxOrigin(extraServerConfig: originServerConfig, extraHTTPConfig: originHTTPConfig)
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-e2e-\(UUID().uuidString)")
        policiesDirectory = root.appendingPathComponent("policies")
        stateDirectory = root.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: policiesDirectory, withIntermediateDirectories: true)
        let json = try policy?(origin.baseURL) ?? Self.policyJSON(originBase: origin.baseURL, routes: Self.defaultRoutes + extraRoutes)
        try json.write(to: policiesDirectory.appendingPathComponent("e2e.json"), atomically: true, encoding: .utf8)
    }

    /// The repository's `Policies/default.json` (every tier, with `variants` and `metadata`), its routes
    /// pointing at `originBase` instead of `http://127.0.0.1:8081`.
    static func repositoryDefaultPolicy(originBase: String) throws -> String {
        let file = NginxOrigin.fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Policies/default.json")
        return try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "http://127.0.0.1:8081", with: originBase)
    }

    /// The default tiers (Tests/Fixtures/policies/default.json) with `routes` pointing at `originBase`.
    static func policyJSON(originBase: String, routes: [Route]) -> String {
        let routeLines = routes.map {
            "    { \"name\": \"\($0.name)\", \"mount\": \"\($0.mount)\", \"origin\": \"\(originBase)\($0.originPath)\", \"tier\": \"\($0.tier)\" }"
        }
        return TestFixtures.defaultPolicy(routes: routeLines)
    }

    /// The running serve's port.
    var port: Int { serve?.port ?? 0 }
    /// The running serve's admin listener port (health, metrics, purge, reload).
    var adminPort: Int { serve?.adminPort ?? 0 }

    /// `GET target` on the running serve's admin listener.
    func admin(_ target: String) throws -> HTTPResponse {
        try RawHTTP.get(port: adminPort, target)
    }

    /// Starts `mediactl serve` on the state directory (a new port each time), with `extraArguments` after
    /// the usual ones (such as `--access-log PATH`) and `environment` added to its own.
    func start(extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        serve = try MediactlProcess(policiesDirectory: policiesDirectory, stateDirectory: stateDirectory,
                                    extraArguments: extraArguments, environment: environment)
    }

    /// SIGTERM and wait: returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let serve else { return -1 }
        let status = serve.terminate()
        serveStderr = serve.stderr
        serve.cleanUp()
        self.serve = nil
        return status
    }

    /// SIGKILL (a crash).
    func crash() {
        serve?.kill()
        serve?.cleanUp()
        serve = nil
    }

    /// Stops serve and nginx and removes the temp folders.
    func tearDown() {
        serve?.cleanUp()
        serve = nil
        origin.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// `GET target` on the running serve, with an optional bearer token.
    func get(_ target: String, token: String? = nil, headers: [(String, String)] = []) throws -> HTTPResponse {
        try RawHTTP.get(port: port, target, token: token, headers: headers)
    }

    /// Waits until serve's write-behind writers have written every stored response accepted so far:
    /// `mediactl_pending_write_bytes` is 0 for every tier and store (polled, at most 10 s). Call it
    /// before looking at the files of `disk/` and `sealed/`, so a scan never passes for lack of files.
    func settle() throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let metrics = try admin("/_mediactl/metrics").text
            let pending = metrics.split(separator: "\n").filter { $0.hasPrefix("mediactl_pending_write_bytes{") }
            // The gauge must be there (a renamed gauge must not pass silently); no line: no tier keeps files.
            if metrics.contains("# TYPE mediactl_pending_write_bytes gauge"), pending.allSatisfy({ $0.hasSuffix(" 0") }) { return }
            guard Date() < deadline else { throw SettleTimeout(metrics: metrics) }
            usleep(2_000)
        }
    }

    struct SettleTimeout: Error { let metrics: String }

    /// `mediactl audit --json --state-dir <state> --policies <policies>` and its decoded report.
    func audit() throws -> (result: MediactlProcess.CommandResult, report: AuditReportDocument?) {
        let result = try MediactlProcess.run(
            ["audit", "--json", "--state-dir", stateDirectory.path, "--policies", policiesDirectory.path])
        return (result, try? JSONDecoder().decode(AuditReportDocument.self, from: Data(result.stdout.utf8)))
    }

    /// `mediactl audit verify --state-dir <state>`.
    func auditVerify() throws -> MediactlProcess.CommandResult {
        try MediactlProcess.run(["audit", "verify", "--state-dir", stateDirectory.path])
    }

    /// `mediactl <arguments> --state-dir <state>`.
    func run(_ arguments: [String]) throws -> MediactlProcess.CommandResult {
        try MediactlProcess.run(arguments + ["--state-dir", stateDirectory.path])
    }

    /// Every audit record so far, in chain order (complete lines only).
    var auditRecords: [AuditLine] { AuditLine.read(directory: stateDirectory.appendingPathComponent("audit")) }
}
