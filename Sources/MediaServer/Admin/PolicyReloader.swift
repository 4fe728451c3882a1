import Foundation
import HTTPServer
import MediaPolicy
import MediaService
import Synchronization

/// Re-reads the policies of a running `mediactl serve` (docs/operations.md, "Reload"): on `SIGHUP` and on
/// `POST /_mediactl/admin/reload` (``ReloadEndpoint``, what `mediactl reload` calls). One reload at a time.
///
/// Validation comes first: the directory is loaded as at start (`--origin` overrides applied). An invalid set
/// changes nothing; its problems are written to stderr exactly as `mediactl policy check` prints them, then
/// `mediactl: <trigger>: reload failed: N problem(s) in DIR; the policies in force stay (sha256 <digest>)`,
/// and `mediactl_policy_reloads_total{result="failed"}` grows. A valid set is handed to
/// ``MediaService/MediaService/reload(policies:digest:)``, then
/// `mediactl: <trigger>: policies reloaded (sha256 <digest>; R routes, T tiers; N stored responses removed)`.
public final class PolicyReloader: Sendable {
    /// What one reload did.
    public enum Outcome: Sendable {
        /// The new set is in force.
        case reloaded(PolicyReloadReport, routes: Int, tiers: Int)
        /// The set was invalid: every problem (``MediaPolicy/PolicyError`` descriptions) and the closing line.
        case invalid(problems: [String], summary: String)
        /// The service failed the swap (``MediaService/ServiceError``); the set in force stays unless it says otherwise.
        case failed(String)
    }

    /// A validated policy set and its digest (``MediaService/PolicyDigest``), or every problem of the files.
    public typealias Read = @Sendable () -> Result<(policies: PolicySet, digest: String), PolicyErrorList>

    let service: MediaService
    /// The policy directory, as the lines name it.
    let directory: String
    /// Reads and validates the directory as at start (`--origin` overrides applied).
    let read: Read
    let log: ServiceLog
    /// The public server's names with `_` (the tiers' `forwardRequestHeaders`), replaced after each reload.
    let underscoreNames: UnderscoreFieldNames?
    private let running = Mutex<Void>(())

    /// - Parameters:
    ///   - service: the running service.
    ///   - directory: the policy directory (named in the lines).
    ///   - read: loads and validates the directory as at start.
    ///   - log: where the lines go.
    ///   - underscoreNames: the public server's names with `_`, replaced after each reload. Default: `nil`.
    public init(service: MediaService, directory: String, read: @escaping Read, log: ServiceLog,
                underscoreNames: UnderscoreFieldNames? = nil) {
        self.underscoreNames = underscoreNames
        self.service = service
        self.directory = directory
        self.read = read
        self.log = log
    }

    /// Loads, validates and swaps in the policies; `trigger` (`SIGHUP`, `reload`) names the cause in stderr lines.
    /// Blocks while another reload runs.
    public func reload(trigger: String) -> Outcome {
        running.withLock { _ in
            let outcome = attempt()
            report(outcome, trigger: trigger)
            return outcome
        }
    }

    /// Returns once no reload is running (`serve` calls it before stopping the service).
    public func waitForReloads() {
        running.withLock { _ in }
    }

    private func attempt() -> Outcome {
        switch read() {
        case .failure(let list):
            let errors = list.errors
            service.countFailedReload(reason: "\(errors.count) problem(s) in \(directory): \(errors.first.map { "\($0)" } ?? "")")
            let count = errors.count
            return .invalid(
                problems: errors.map { $0.description },
                summary: "reload failed: \(count) problem\(count == 1 ? "" : "s") in \(directory); "
                    + "the policies in force stay (sha256 \(service.policyDigest))")
        case .success(let loaded):
            do {
                let report = try service.reload(policies: loaded.policies, digest: loaded.digest)
                underscoreNames?.replace(with: loaded.policies.forwardedUnderscoreNames)
                return .reloaded(report, routes: loaded.policies.routes.count, tiers: loaded.policies.tiers.count)
            } catch {
                // A swap whose records failed leaves the new set in force: the server's field names follow it too.
                if service.policyDigest == loaded.digest {
                    underscoreNames?.replace(with: loaded.policies.forwardedUnderscoreNames)
                }
                // The service's own words (ServiceError's context, without its code): they say which set is in force.
                return .failed((error as? ServiceError)?.context ?? "\(error)")
            }
        }
    }

    private func report(_ outcome: Outcome, trigger: String) {
        switch outcome {
        case .invalid(let problems, let summary):
            for problem in problems { log.log(.warn, problem) }
            log.log(.warn, "\(trigger): \(summary)")
        case .failed(let message):
            log.log(.warn, "\(trigger): reload failed: \(message)")
        case .reloaded(let report, let routes, let tiers):
            log.log(.info, 
                "\(trigger): policies reloaded (sha256 \(report.digest); \(routes) route\(routes == 1 ? "" : "s"), "
                    + "\(tiers) tier\(tiers == 1 ? "" : "s"); \(report.removedObjects) stored "
                    + "response\(report.removedObjects == 1 ? "" : "s") removed)")
        }
    }
}
