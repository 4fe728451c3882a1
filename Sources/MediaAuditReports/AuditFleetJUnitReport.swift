import MediaAudit

/// An ``MediaAudit/AuditFleet`` as one JUnit XML document: every replica's suites of ``AuditJUnitReport`` under one
/// `testsuites` root, so CI shows which replica failed which check.
///
/// Replica `i` (1-based, command-line order) named `NAME` contributes, in order, its `audit-log` and
/// `tier <tier>` suites renamed `NAME: audit-log`, `NAME: tier <tier>`; their cases' classnames become
/// `mediactl.replica-i.audit-log`, `mediactl.replica-i.tier.<tier>` (a path would break the dotted
/// classname), and each suite's properties start with `stateDirectory` = `NAME`. Everything else (cases,
/// failures, the replica's notes as the `system-out` of its `audit-log` suite, counts, escaping) is as
/// ``AuditJUnitReport`` renders one replica; the root's `tests` and `failures` count every replica's cases, its
/// `time` is the whole run's (``context``).
public struct AuditFleetJUnitReport: Hashable, Sendable {
    /// The fleet rendered.
    public let fleet: AuditFleet
    /// When the audit ran and how long it took (each replica's records and notes are its own context's).
    public let context: AuditReportContext

    public init(fleet: AuditFleet, context: AuditReportContext) {
        self.fleet = fleet
        self.context = context
    }

    /// The suites, in document order (see the type's documentation).
    public var suites: [AuditJUnitReport.Suite] {
        fleet.replicas.enumerated().flatMap { offset, replica in
            var replicaContext = replica.context
            replicaContext.generatedAt = context.generatedAt
            let prefix = "mediactl.replica-\(offset + 1)."
            return AuditJUnitReport(report: replica.report, context: replicaContext).suites.map { suite in
                var suite = suite
                suite.name = "\(replica.name): \(suite.name)"
                suite.properties.insert(AuditJUnitReport.Property("stateDirectory", replica.name), at: 0)
                suite.cases = suite.cases.map { testCase in
                    var testCase = testCase
                    testCase.classname = prefix + testCase.classname.dropFirst("mediactl.".count)
                    return testCase
                }
                return suite
            }
        }
    }

    /// The XML document (see the type's documentation).
    public var xml: String { AuditJUnitReport.xml(suites: suites, context: context) }
}
