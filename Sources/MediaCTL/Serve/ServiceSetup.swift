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
    /// - Throws: ``CommandError`` `state-directory` (exit 2):
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
        } catch let error as ServiceError {
            throw stateError(stateDirectory, error.context)
        } catch {
            throw stateError(stateDirectory, String(describing: error))
        }
    }

    private static func stateError(_ directory: String, _ reason: String) -> CommandError {
        CommandError(.stateDirectory, "cannot open state directory '\(directory)': \(reason)", exitCode: .unusableInput)
    }

    private static func invalid(_ errors: [PolicyError]) -> CommandError {
        CommandError(
            .invalidPolicy, errors.map(\.description).joined(separator: "\nmediactl: "), exitCode: .unusableInput)
    }
}
