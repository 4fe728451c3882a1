import MediaAudit

/// An ``MediaAudit/AuditReport`` as JUnit XML, the Ant/Jenkins format that GitLab, Jenkins and GitHub test reporters
/// read: each check of ``AuditCheck/all`` is a `testcase`, each violation a `failure` in its check's case.
///
/// Shape (two-space indentation, UTF-8, every line ends with `\n`):
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <testsuites name="mediactl audit" tests="25" failures="1" errors="0" time="0.042">
///   <testsuite name="audit-log" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
///     <properties>…records, checkpointSeq, lastHash, violations, firstRecordTime, lastRecordTime…</properties>
///     <testcase name="chain intact" classname="mediactl.audit-log" time="0.000"/>
///   </testsuite>
///   <testsuite name="tier private" …>
///     <properties>…allowedStorage, objects, bytes…</properties>
///     <testcase name="no plaintext under sealed/" classname="mediactl.tier.private" time="0.000">
///       <failure message="<evidence>" type="not-sealed">kind: not-sealed
/// tier: private
/// …</failure>
///     </testcase>
///     …
///   </testsuite>
/// </testsuites>
/// ```
///
/// - Suites: `audit-log` (the chain check; the context's notes as its `system-out`), then `tier <name>`
///   for every tier of the report, plus `tier unknown` when a violation names no tier and the report has
///   no such tier. A violation goes to its tier's suite (`unknown` when it names none); a `broken-chain`
///   to `audit-log`; a kind no check lists gets its own case named after the kind.
/// - Counts: `tests` = test cases, `failures` = test cases with at least one `failure` (a case may hold
///   several, one per violation), `errors` and `skipped` 0 (an audit that cannot run writes no report).
/// - Times: the root's `time` is the whole audit (the checks run in one streamed pass, so suites and cases
///   say `0.000`); `timestamp` is ``MediaAudit/AuditReportContext/generatedAt`` in UTC without a zone designator, as
///   the Ant schema's `ISO8601_DATETIME_PATTERN` requires.
/// - Text is escaped by ``XMLEscaping``. What is written comes from the report (tier names, keys, paths
///   relative to the state directory, seqs, evidence) and the context: no URL, credential or partition
///   beyond the 16-hex-digit prefixes the evidence already shows.
public struct AuditJUnitReport: Hashable, Sendable {
    /// One `testcase`: a check in one suite and the violations that fail it.
    public struct Case: Hashable, Sendable {
        /// The check's name (`name` attribute).
        public var name: String
        /// `mediactl.audit-log` or `mediactl.tier.<tier>` (`classname` attribute).
        public var classname: String
        /// The violations of this check in this suite, in report order (`failure` elements).
        public var failures: [AuditViolation]
    }

    /// One `property` of a suite: `name` and `value` attributes.
    public struct Property: Hashable, Sendable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One `testsuite`.
    public struct Suite: Hashable, Sendable {
        /// `audit-log` or `tier <name>`.
        public var name: String
        /// The `property` elements of the `properties` element.
        public var properties: [Property]
        /// The test cases, in ``AuditCheck/all`` order, then any case of an unlisted kind.
        public var cases: [Case]
        /// Lines of the `system-out` element (none: no element).
        public var output: [String]

        /// Test cases with at least one failure.
        public var failureCount: Int { cases.filter { !$0.failures.isEmpty }.count }
    }

    /// The report rendered.
    public let report: AuditReport
    /// When it ran, how long it took, the records' time range and the notes.
    public let context: AuditReportContext

    public init(report: AuditReport, context: AuditReportContext) {
        self.report = report
        self.context = context
    }

    /// The suites, in document order (see the type's documentation).
    public var suites: [Suite] {
        let logCases = AuditCheck.checks(.log).map { check in
            Case(name: check.name, classname: "mediactl.audit-log",
                 failures: report.violations.filter { $0.kind == check.kind })
        }
        let log = Suite(name: "audit-log", properties: logProperties, cases: logCases, output: context.notes)
        var tierViolations: [String: [AuditViolation]] = [:]
        for violation in report.violations where AuditCheck.check(for: violation.kind).scope == .tier {
            tierViolations[violation.tier ?? "unknown", default: []].append(violation)
        }
        var tiers = report.tiers.map { ($0.tier, $0 as AuditReport.Tier?) }
        for name in tierViolations.keys where !report.tiers.contains(where: { $0.tier == name }) {
            tiers.append((name, nil))
        }
        tiers.sort { $0.0 < $1.0 }
        var suites = [Suite]()
        for (name, tier) in tiers {
            suites.append(tierSuite(name, tier: tier, violations: tierViolations[name] ?? []))
        }
        return [log] + suites
    }

    /// The XML document (see the type's documentation).
    public var xml: String { Self.xml(suites: suites, context: context) }

    /// The XML document of `suites` under one `testsuites` root (`name="mediactl audit"`, the totals of
    /// the suites, the context's duration); every suite carries the context's `timestamp`.
    public static func xml(suites: [Suite], context: AuditReportContext) -> String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failureCount }
        let timestamp = String(context.generatedAt.rfc3339.prefix(19))
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<testsuites name="mediactl audit" tests="\#(tests)" failures="\#(failures)" errors="0" time="\#(context.durationSeconds)">"#
            + "\n"
        for suite in suites {
            out += "  <testsuite name=\"\(XMLEscaping.attribute(suite.name))\" tests=\"\(suite.cases.count)\" "
                + "failures=\"\(suite.failureCount)\" errors=\"0\" skipped=\"0\" time=\"0.000\" timestamp=\"\(timestamp)\">\n"
            if !suite.properties.isEmpty {
                out += "    <properties>\n"
                for property in suite.properties {
                    out += "      <property name=\"\(XMLEscaping.attribute(property.name))\" "
                        + "value=\"\(XMLEscaping.attribute(property.value))\"/>\n"
                }
                out += "    </properties>\n"
            }
            for testCase in suite.cases {
                let head = "    <testcase name=\"\(XMLEscaping.attribute(testCase.name))\" "
                    + "classname=\"\(XMLEscaping.attribute(testCase.classname))\" time=\"0.000\""
                guard !testCase.failures.isEmpty else {
                    out += head + "/>\n"
                    continue
                }
                out += head + ">\n"
                for violation in testCase.failures {
                    out += "      <failure message=\"\(XMLEscaping.attribute(violation.evidence))\" "
                        + "type=\"\(XMLEscaping.attribute(violation.kind.rawValue))\">"
                        + XMLEscaping.text(Self.details(violation)) + "</failure>\n"
                }
                out += "    </testcase>\n"
            }
            if !suite.output.isEmpty {
                out += "    <system-out>" + XMLEscaping.text(suite.output.joined(separator: "\n")) + "</system-out>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// A violation's details, the text of its `failure`: one `name: value` line per field present, in
    /// the order `kind`, `tier`, `folder`, `key`, `seq`, `evidence`, without a final line break.
    public static func details(_ violation: AuditViolation) -> String {
        var lines = ["kind: \(violation.kind.rawValue)"]
        if let tier = violation.tier { lines.append("tier: \(tier)") }
        if let folder = violation.folder { lines.append("folder: \(folder.rawValue)") }
        if let key = violation.key { lines.append("key: \(key)") }
        if let seq = violation.seq { lines.append("seq: \(seq)") }
        lines.append("evidence: \(violation.evidence)")
        return lines.joined(separator: "\n")
    }

    private var logProperties: [Property] {
        var properties = [
            Property("records", String(report.recordCount)), Property("checkpointSeq", String(report.chain.checkpointSeq)),
            Property("lastHash", report.chain.lastHash.hex), Property("violations", String(report.violations.count)),
        ]
        if let first = context.records.first, let last = context.records.last {
            properties += [Property("firstRecordTime", first.rfc3339), Property("lastRecordTime", last.rfc3339)]
        }
        return properties
    }

    private func tierSuite(_ name: String, tier: AuditReport.Tier?, violations: [AuditViolation]) -> Suite {
        let classname = "mediactl.tier.\(name)"
        var cases = AuditCheck.checks(.tier).map { check in
            Case(name: check.name, classname: classname, failures: violations.filter { $0.kind == check.kind })
        }
        var unlisted: [AuditViolation.Kind] = []
        for violation in violations where !AuditCheck.all.contains(where: { $0.kind == violation.kind }) {
            if !unlisted.contains(violation.kind) { unlisted.append(violation.kind) }
        }
        for kind in unlisted {
            cases.append(Case(name: kind.rawValue, classname: classname, failures: violations.filter { $0.kind == kind }))
        }
        let rows = tier?.rows ?? []
        return Suite(
            name: "tier \(name)",
            properties: [
                Property("allowedStorage", tier?.allowedStorage?.rawValue ?? "none: not in policies"),
                Property("objects", String(rows.reduce(0) { $0 + $1.objects })),
                Property("bytes", String(rows.reduce(0) { $0 + $1.bytes })),
            ],
            cases: cases, output: [])
    }
}
