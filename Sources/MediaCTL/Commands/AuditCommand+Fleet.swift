import Glibc
import MediaAudit
import MediaAuditReports
import MediaPolicy
import MediaService
import MediaStorage

extension AuditCommand {
    /// `audit` with several `--state-dir`: every replica is audited against the same policies (loaded once)
    /// before the report is printed (a replica judged by other policies than its log's is warned about on stderr as
    /// it is audited); then ``AuditFleetDocument`` as text or JSON and the fleet's JUnit and HTML
    /// files (``MediaAuditReports/AuditFleetJUnitReport``, ``MediaAuditReports/AuditFleetHTMLReport``). Exit 1 when any replica has a
    /// violation; 2, with nothing on stdout, when any replica cannot be audited (the error names its state
    /// directory or log), or, after stdout, when a report file cannot be written.
    func runFleet(context: CommandContext, clock: AuditReportClock) -> ExitCode {
        let started = clock.monotonicMilliseconds()
        let generatedAt = clock.now()
        do {
            let loaded = try PolicyCheckCommand.loadWithDigest(
                policiesDirectory, context: context, failure: "cannot audit")
            var replicas: [AuditFleetDocument.Replica] = []
            var ranges: [AuditReportContext.TimeRange] = []
            for state in stateDirectories {
                var records = AuditReportContext.TimeRange()
                var document = try Self.audit(stateDirectory: state, policies: loaded.policies) { records.add($0.time) }
                // Each replica's log is compared with the files: one replica left on an older set is named.
                if let mismatch = Self.policiesMismatch(document, loaded: loaded, directory: policiesDirectory) {
                    document.policiesMismatch = mismatch
                    context.diagnose("warning: \(state): " + mismatch.line)
                }
                replicas.append(AuditFleetDocument.Replica(stateDirectory: state, document: document))
                ranges.append(records)
            }
            let document = AuditFleetDocument(replicas: replicas)
            if json {
                try context.writeJSON(document)
            } else {
                context.stdout.write(document.text)
            }
            var status: ExitCode = document.isClean ? .success : .failure
            guard junitFile != nil || htmlFile != nil else { return status }
            let fleet = document.fleet(records: ranges, generatedAt: generatedAt)
            let fleetContext = AuditReportContext(
                generatedAt: generatedAt, durationMilliseconds: clock.monotonicMilliseconds() - started)
            if let path = junitFile {
                let xml = AuditFleetJUnitReport(fleet: fleet, context: fleetContext).xml
                if let failure = Self.write(xml, to: path, what: "the JUnit report") { status = context.fail(failure) }
            }
            if let path = htmlFile {
                let html = AuditFleetHTMLReport(fleet: fleet, context: fleetContext).html
                if let failure = Self.write(html, to: path, what: "the HTML report") { status = context.fail(failure) }
            }
            return status
        } catch {
            return context.fail(error)
        }
    }
}
