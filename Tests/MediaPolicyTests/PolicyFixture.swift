import Foundation
import Testing
@testable import MediaPolicy

/// Builds policy texts and loads them in-memory or from temporary directories.
enum PolicyFixture {
    /// The repository root, found from this file's path (Tests/MediaPolicyTests/…).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A route of tier `t` that makes a one-tier policy valid.
    static let route = #"{ "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t" }"#

    /// A file with one tier `t` whose object body is `tier` and one route on it.
    static func tierPolicy(_ tier: String) -> String {
        #"{ "tiers": { "t": \#(tier) }, "routes": [ \#(route) ] }"#
    }

    /// A file with tier `t` (`{"storage":"disk"}`) and the given routes.
    static func routePolicy(_ routes: String...) -> String {
        #"{ "tiers": { "t": { "storage": "disk" } }, "routes": [ \#(routes.joined(separator: ", ")) ] }"#
    }

    /// The error descriptions of loading `files` (name, text) in order; empty when it loads.
    static func messages(_ files: [(String, String)]) -> [String] {
        do {
            _ = try PolicyLoader().load(sources: files.map { PolicyLoader.Source(name: $0.0, text: $0.1) })
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    static func messages(_ text: String, file: String = "Policies/test.json") -> [String] {
        messages([(file, text)])
    }

    static func errors(_ text: String, file: String = "Policies/test.json") -> [PolicyError] {
        do {
            _ = try PolicyLoader().load(sources: [PolicyLoader.Source(name: file, text: text)])
            return []
        } catch {
            return error.errors
        }
    }

    static func load(_ text: String, file: String = "Policies/test.json") throws -> PolicySet {
        try PolicyLoader().load(sources: [PolicyLoader.Source(name: file, text: text)])
    }

    /// A fresh empty temporary directory; the caller removes it.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mediapolicy-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// A suite about one tier key: the errors of a one-tier policy and the tier it loads as (``PolicyFixture/tierPolicy(_:)``).
protocol TierPolicyTesting {}

extension TierPolicyTesting {
    /// The error descriptions of a policy whose tier `t` is `tier`; empty when it loads.
    func messages(_ tier: String) -> [String] { PolicyFixture.messages(PolicyFixture.tierPolicy(tier)) }

    /// Tier `t` of a policy whose tier is `text`, loaded.
    func tier(_ text: String) throws -> Tier {
        try #require(try PolicyFixture.load(PolicyFixture.tierPolicy(text)).tier(named: "t"))
    }
}
