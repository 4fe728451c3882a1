import Foundation
import MediaAudit
import MediaPolicy
import MediaService

/// The steps `serve`, `fetch` and `demo` share: load the policies, apply `--origin` overrides,
/// open the ``MediaService`` on a state directory.
public enum ServiceSetup {
    /// Loads `directory` and replaces the origins named by `overrides`, in order.
    /// - Throws: ``CommandError`` `invalid-policy` (exit 2) whose message is every
    ///   ``MediaPolicy/PolicyError`` description, one per line, each line printed after `mediactl: `,
    ///   such as `--origin: catalgo: unknown route (did you mean `catalog`?); allowed: avatars, catalog, one-time, receipts`.
    public static func loadPolicies(_ directory: String, overrides: [OriginOverride] = []) throws(CommandError)
        -> PolicySet
    {
        var policies: PolicySet
        do {
            policies = try PolicyLoader().load(directory: directory)
        } catch {
            throw invalid(error.errors)
        }
        return try applying(overrides, to: policies)
    }

    /// Loads policy files given as text (the demo's built-in policy), then applies `overrides`.
    /// - Throws: as ``loadPolicies(_:overrides:)``.
    public static func loadPolicies(_ sources: [PolicyLoader.Source], overrides: [OriginOverride] = [])
        throws(CommandError) -> PolicySet
    {
        let policies: PolicySet
        do {
            policies = try PolicyLoader().load(sources: sources)
        } catch {
            throw invalid(error.errors)
        }
        return try applying(overrides, to: policies)
    }

    /// A policy set and its digest (``MediaService/PolicyDigest``).
    public struct LoadedPolicies: Sendable {
        /// The validated set, `--origin` overrides applied.
        public var policies: PolicySet
        /// Hex SHA-256 over the files the set was loaded from and the overrides.
        public var digest: String
    }

    /// Loads `directory` like ``loadPolicies(_:overrides:)`` and computes the set's digest over the very
    /// bytes that were validated (the files are read once, then parsed from memory).
    /// - Throws: ``CommandError`` `invalid-policy` as ``loadPolicies(_:overrides:)``.
    public static func loadPoliciesWithDigest(_ directory: String, overrides: [OriginOverride] = [])
        throws(CommandError) -> LoadedPolicies
    {
        switch readPolicies(directory, overrides: overrides) {
        case .success(let loaded): return loaded
        case .failure(let list): throw invalid(list.errors)
        }
    }

    /// Reads and validates `directory` (every problem, as ``MediaPolicy/PolicyLoader/load(directory:)`` reports
    /// them), then applies `overrides` and reads the secret files the set names (``MediaService/PolicySecrets``). The directory's problems (missing, unreadable, no files, a file too
    /// large) come from ``MediaPolicy/PolicyLoader/load(directory:)``; the set itself is parsed from the bytes
    /// read once, which the digest covers.
    static func readPolicies(_ directory: String, overrides: [OriginOverride]) -> Result<LoadedPolicies, PolicyErrorList> {
        let loader = PolicyLoader()
        let listed: PolicySet
        do {
            listed = try loader.load(directory: directory)
        } catch {
            return .failure(error)
        }
        var sources: [PolicyLoader.Source] = []
        for file in listed.files {
            guard let data = FileManager.default.contents(atPath: file) else {
                return .failure(PolicyErrorList([PolicyLoader.unreadableFile(file)]))
            }
            sources.append(PolicyLoader.Source(name: file, bytes: [UInt8](data)))
        }
        var policies: PolicySet
        do {
            var trimmed = directory
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            policies = try loader.load(sources: sources, directory: trimmed)
        } catch {
            return .failure(error)
        }
        for override in overrides {
            do {
                policies = try policies.overridingOrigin(override.url, forRoute: override.route)
            } catch {
                return .failure(PolicyErrorList([error]))
            }
        }
        do {
            // The keys files and origin tokens the set names are part of its validity (docs/signed-urls.md).
            _ = try PolicySecrets.load(for: policies)
        } catch {
            return .failure(error)
        }
        let digest = PolicyDigest.of(sources: sources, overrides: overrides.map { ($0.route, $0.url) })
        return .success(LoadedPolicies(policies: policies, digest: digest))
    }

    static func applying(_ overrides: [OriginOverride], to policies: PolicySet) throws(CommandError) -> PolicySet {
        var policies = policies
        for override in overrides {
            do {
                policies = try policies.overridingOrigin(override.url, forRoute: override.route)
            } catch {
                throw invalid([error])
            }
        }
        return policies
    }

    /// Opens the service on `stateDirectory` (created 0700 when missing).
    /// - Throws: ``CommandError`` `invalid-policy` (exit 2) when a secret file the policies name is refused (each
    ///   problem on its own `mediactl: ` line, as `policy check` prints it); `state-directory` (exit 2):
    ///   `cannot open state directory 'D': its audit log is locked by another process (is another mediactl serve running?)`,
    ///   `cannot open state directory 'D': D exists and is not a directory`, or
    ///   `cannot open state directory 'D': <error>`.
    public static func openService(
        policies: PolicySet, stateDirectory: String, fetcher: any OriginFetching,
        configure: (inout MediaService.Configuration) -> Void = { _ in }
    ) throws(CommandError) -> MediaService {
        var configuration = MediaService.Configuration(stateDirectory: stateDirectory)
        configure(&configuration)
        do {
            return try MediaService(policies: policies, fetcher: fetcher, configuration: configuration)
        } catch let error as AuditError where error.code == .locked {
            throw stateError(
                stateDirectory, "its audit log is locked by another process (is another mediactl serve running?)")
        } catch let error as ServiceError where error.code == .invalidPolicy {
            throw CommandError(.invalidPolicy, error.context.replacingOccurrences(of: "\n", with: "\nmediactl: "),
                               exitCode: .unusableInput)
        } catch let error as ServiceError {
            throw stateError(stateDirectory, error.context)
        } catch {
            throw stateError(stateDirectory, String(describing: error))
        }
    }

    private static func stateError(_ directory: String, _ reason: String) -> CommandError {
        CommandError(.stateDirectory, "cannot open state directory '\(directory)': \(reason)", exitCode: .unusableInput)
    }

    static func invalid(_ errors: [PolicyError]) -> CommandError {
        CommandError(
            .invalidPolicy, errors.map(\.description).joined(separator: "\nmediactl: "), exitCode: .unusableInput)
    }
}
