import Foundation
import MediaTestSupport

/// `mediactl serve` in conformance mode (`docs/examples/conformance/conformance.json`: one
/// `"methods": "all"` route on a generic shared tier, memory storage) in front of a ``ScriptedOrigin/Socket``.
/// ``tearDown()`` stops both (call it in a `defer`).
final class ConformanceWorld: @unchecked Sendable {
    let origin: ScriptedOrigin.Socket
    let root: URL
    let serve: MediactlProcess

    /// Starts the scripted origin with `handler` and `mediactl serve` with the repository's conformance
    /// policy pointed at it; `tier` entries are merged into the `http` tier (e.g. `"cache": "private"`).
    init(tier: [String: String] = [:], extraArguments: [String] = [],
         handler: @escaping @Sendable (ScriptedOrigin.Request, Int, ScriptedOrigin.Connection) -> Void) throws {
        origin = try ScriptedOrigin.Socket(handler: handler)
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-conf-\(UUID().uuidString)")
        let policies = root.appendingPathComponent("policies")
        try FileManager.default.createDirectory(at: policies, withIntermediateDirectories: true)
        var tierKeys: [String: String] = [
            "storage": "\"memory\"", "cache": "\"shared\"", "credentials": "\"forward\"", "contentTypes": "[\"*/*\"]",
            "maxTTL": "2147483648", "memoryBytes": "268435456", "maxObjectBytes": "10485760", "originTimeout": "30",
            "forwardInterim": "true",
        ]
        for (key, value) in tier { tierKeys[key] = value }
        let tierJSON = tierKeys.keys.sorted().map { "\"\($0)\": \(tierKeys[$0]!)" }.joined(separator: ", ")
        let policy = """
        { "tiers": { "http": { \(tierJSON) } },
          "routes": [ { "name": "all", "mount": "/", "origin": "\(origin.baseURL)/", "tier": "http", "methods": "all" } ] }
        """
        try policy.write(to: policies.appendingPathComponent("conformance.json"), atomically: true, encoding: .utf8)
        serve = try MediactlProcess(policiesDirectory: policies, stateDirectory: root.appendingPathComponent("state"),
                                    extraArguments: extraArguments)
    }

    /// Stops serve and the origin and removes the temp folder.
    func tearDown() {
        serve.cleanUp()
        origin.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// `method target` with `headers` on serve.
    func request(_ method: String, _ target: String, _ headers: [(String, String)] = []) throws -> HTTPResponse {
        try RawHTTP.request(port: serve.port, method, target, headers: headers)
    }

    /// `GET target` with `headers` on serve.
    func get(_ target: String, _ headers: [(String, String)] = []) throws -> HTTPResponse {
        try request("GET", target, headers)
    }

    /// The targets the origin received so far.
    var originTargets: [String] { origin.requests.map(\.target) }
}
