import Foundation
import MediaTestSupport
import Testing

@testable import MediaAudit
@testable import MediaAuditReports

@Suite struct AuditJUnitReportTests {
    typealias F = RenderingFixtures

    /// The 13 `<testcase …/>` lines of one passing tier suite.
    static func passingCases(_ classname: String) -> String {
        F.tierCheckNames.map {
            "    <testcase name=\"\(XMLEscaping.attribute($0))\" classname=\"\(classname)\" time=\"0.000\"/>\n"
        }.joined()
    }

    @Test func aCleanReportIsExactXML() {
        let xml = AuditJUnitReport(report: F.clean, context: F.context).xml
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="mediactl audit" tests="27" failures="0" errors="0" time="1.042">
              <testsuite name="audit-log" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
                <properties>
                  <property name="records" value="3"/>
                  <property name="checkpointSeq" value="0"/>
                  <property name="lastHash" value="\(F.lastHash.hex)"/>
                  <property name="violations" value="0"/>
                  <property name="firstRecordTime" value="2026-11-29T10:07:15.123Z"/>
                  <property name="lastRecordTime" value="2026-11-29T11:07:14.123Z"/>
                </properties>
                <testcase name="chain intact" classname="mediactl.audit-log" time="0.000"/>
              </testsuite>
              <testsuite name="tier private" tests="13" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
                <properties>
                  <property name="allowedStorage" value="encrypted-disk"/>
                  <property name="objects" value="2"/>
                  <property name="bytes" value="40618"/>
                </properties>

            """ + Self.passingCases("mediactl.tier.private") + """
              </testsuite>
              <testsuite name="tier public" tests="13" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
                <properties>
                  <property name="allowedStorage" value="disk"/>
                  <property name="objects" value="1"/>
                  <property name="bytes" value="6402"/>
                </properties>

            """ + Self.passingCases("mediactl.tier.public") + """
              </testsuite>
            </testsuites>

            """
        #expect(xml == expected)
    }

    @Test func theCheckNamesAreTheDocumentedOnes() {
        #expect(AuditCheck.checks(.log).map(\.name) == ["chain intact"])
        #expect(AuditCheck.checks(.tier).map(\.name) == F.tierCheckNames)
        #expect(AuditCheck.all.map(\.kind.rawValue) == [
            "broken-chain", "not-sealed", "disk-not-allowed", "unrecorded-object", "removed-object-present",
            "storage-mismatch", "body-mismatch", "store-in-no-store-tier", "store-wider-than-tier", "unknown-tier",
            "variant-wider-than-source", "variant-partition-mismatch", "variant-tier-mismatch",
            "variant-source-unrecorded",
        ])
    }

    /// Each violation is a failure in its check's case of its tier's suite; one naming no tier goes to
    /// `tier unknown`, added because the report has no such tier.
    @Test func violationsFailTheCaseOfTheirCheckInTheirTiersSuite() {
        let suites = AuditJUnitReport(report: F.withViolations, context: F.context).suites
        #expect(suites.map(\.name) == ["audit-log", "tier \(F.hostileTier)", "tier private", "tier unknown"])
        #expect(suites.map(\.cases.count) == [1, 13, 13, 13])
        #expect(suites.map(\.failureCount) == [1, 1, 2, 1])
        let failing = suites.map { suite in suite.cases.filter { !$0.failures.isEmpty }.map(\.name) }
        #expect(failing == [
            ["chain intact"], ["tier defined by the policies"], ["no plaintext under sealed/", "no unrecorded object"],
            ["no unrecorded object"],
        ])
        #expect(suites.flatMap(\.cases).flatMap(\.failures).count == 5)
        #expect(suites[3].properties == [
            .init("allowedStorage", "none: not in policies"), .init("objects", "0"), .init("bytes", "0"),
        ])
    }

    @Test func failuresAreExactElements() {
        let xml = AuditJUnitReport(report: F.withViolations, context: F.context).xml
        #expect(xml.hasPrefix("""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="mediactl audit" tests="40" failures="5" errors="0" time="1.042">
              <testsuite name="audit-log" tests="1" failures="1" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
                <properties>
                  <property name="records" value="4"/>
                  <property name="checkpointSeq" value="0"/>
                  <property name="lastHash" value="\(F.lastHash.hex)"/>
                  <property name="violations" value="5"/>
                  <property name="firstRecordTime" value="2026-11-29T10:07:15.123Z"/>
                  <property name="lastRecordTime" value="2026-11-29T11:07:14.123Z"/>
                </properties>
                <testcase name="chain intact" classname="mediactl.audit-log" time="0.000">
                  <failure message="hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…" type="broken-chain">kind: broken-chain
            seq: 2
            evidence: hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…</failure>
                </testcase>
              </testsuite>
              <testsuite name="tier &lt;b&gt;&amp;&quot;x&#39;\u{FFFD}" tests="13" failures="1" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
                <properties>
                  <property name="allowedStorage" value="none: not in policies"/>
                  <property name="objects" value="0"/>
                  <property name="bytes" value="0"/>
                </properties>

            """))
        let hostile = "&lt;b&gt;&amp;&quot;x&#39;\u{FFFD}"
        #expect(xml.contains("""
                <testcase name="tier defined by the policies" classname="mediactl.tier.\(hostile)" time="0.000">
                  <failure message="store record 3 names tier \(hostile), &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; a&#9;b&#10;c&#13;d" type="unknown-tier">kind: unknown-tier
            tier: &lt;b&gt;&amp;"x'\u{FFFD}
            key: \(F.strayKey)
            seq: 3
            evidence: store record 3 names tier &lt;b&gt;&amp;"x'\u{FFFD}, &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; a\tb
            c&#13;d</failure>
                </testcase>

            """))
        #expect(xml.contains("""
                <testcase name="no plaintext under sealed/" classname="mediactl.tier.private" time="0.000">
                  <failure message="sealed/private/fe/a8/\(F.sealedKey) (20019 bytes) is not a sealed object" type="not-sealed">kind: not-sealed
            tier: private
            folder: sealed
            key: \(F.sealedKey)
            evidence: sealed/private/fe/a8/\(F.sealedKey) (20019 bytes) is not a sealed object</failure>
                </testcase>

            """))
        #expect(xml.contains("""
                <testcase name="no unrecorded object" classname="mediactl.tier.unknown" time="0.000">
                  <failure message="sealed/ab/ab/\(F.strayKey) (9 bytes) has no store record" type="unrecorded-object">kind: unrecorded-object
            folder: sealed
            key: \(F.strayKey)
            evidence: sealed/ab/ab/\(F.strayKey) (9 bytes) has no store record</failure>
                </testcase>

            """))
    }

    /// Parsed by a real XML parser: the Ant/Jenkins JUnit elements and attributes, counts that add up,
    /// and every failure reading back as its violation (message = evidence, text = details).
    @Test(arguments: [false, true])
    func theXMLParsesAsJUnit(withViolations: Bool) throws {
        let report = withViolations ? F.withViolations : F.clean
        let root = try XMLNode.parse(AuditJUnitReport(report: report, context: F.context).xml)
        #expect(root.name == "testsuites")
        #expect(Set(root.attributes.keys) == ["name", "tests", "failures", "errors", "time"])
        #expect(root.children.allSatisfy { $0.name == "testsuite" })
        let cases = root.descendants("testcase")
        #expect(root.attributes["tests"] == String(cases.count))
        #expect(root.attributes["failures"] == String(cases.filter { !$0.elements("failure").isEmpty }.count))
        #expect(root.attributes["errors"] == "0")
        for suite in root.children {
            #expect(Set(suite.attributes.keys) == ["name", "tests", "failures", "errors", "skipped", "time", "timestamp"])
            #expect(suite.attributes["tests"] == String(suite.elements("testcase").count))
            #expect(suite.attributes["failures"] == String(suite.elements("testcase").filter { !$0.elements("failure").isEmpty }.count))
            #expect(suite.attributes["timestamp"] == "2026-11-29T11:07:15")
            // Schema order: properties, testcase*, system-out.
            #expect(suite.children.map(\.name) == ["properties"] + Array(repeating: "testcase", count: suite.elements("testcase").count))
            for property in suite.descendants("property") {
                #expect(Set(property.attributes.keys) == ["name", "value"])
            }
            for testCase in suite.elements("testcase") {
                #expect(Set(testCase.attributes.keys) == ["name", "classname", "time"])
                #expect(testCase.children.allSatisfy { $0.name == "failure" })
            }
        }
        let failures = root.descendants("failure")
        let expected = report.violations.map { violation in
            violation.evidence.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
        }
        #expect(Set(failures.map { $0.attributes["message"] ?? "" }) == Set(expected))
        #expect(failures.count == report.violations.count)
        for failure in failures {
            #expect(Set(failure.attributes.keys) == ["message", "type"])
            let violation = try #require(report.violations.first {
                $0.evidence.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}") == failure.attributes["message"]
            })
            #expect(failure.attributes["type"] == violation.kind.rawValue)
            #expect(failure.text == AuditJUnitReport.details(violation).replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"))
        }
        let names = root.children.map { $0.attributes["name"] ?? "" }
        #expect(names == (withViolations
            ? ["audit-log", "tier <b>&\"x'\u{FFFD}", "tier private", "tier unknown"]
            : ["audit-log", "tier private", "tier public"]))
    }

    @Test func notesAreTheLogSuitesSystemOut() throws {
        var context = F.context
        context.notes = ["temporary-file disk/public/ab/cd/x.tmp", "not-sealed sealed/a: <no> MCSE & magic"]
        let xml = AuditJUnitReport(report: F.clean, context: context).xml
        #expect(xml.contains("""
                <testcase name="chain intact" classname="mediactl.audit-log" time="0.000"/>
                <system-out>temporary-file disk/public/ab/cd/x.tmp
            not-sealed sealed/a: &lt;no&gt; MCSE &amp; magic</system-out>
              </testsuite>

            """))
        let root = try XMLNode.parse(xml)
        #expect(root.children[0].children.map(\.name) == ["properties", "testcase", "system-out"])
        #expect(root.children[0].elements("system-out")[0].text == context.notes.joined(separator: "\n"))
    }

    /// A kind no check lists (a newer reconciler's) still fails a case: one named after the kind.
    @Test func anUnlistedKindGetsItsOwnCase() {
        let violation = AuditViolation(kind: .init("future-kind"), tier: "private", evidence: "later")
        var report = F.clean
        report.violations = [violation]
        let suites = AuditJUnitReport(report: report, context: F.context).suites
        #expect(suites[1].cases.map(\.name) == F.tierCheckNames + ["future-kind"])
        #expect(suites[1].cases.last?.failures == [violation])
        #expect(suites.map(\.failureCount) == [0, 1, 0])
    }

    @Test func noRecordsNoTimeRangeProperties() {
        let context = AuditReportContext(generatedAt: AuditTime(millisecondsSinceEpoch: 0))
        let suite = AuditJUnitReport(report: F.clean, context: context).suites[0]
        #expect(suite.properties.map(\.name) == ["records", "checkpointSeq", "lastHash", "violations"])
        #expect(AuditJUnitReport(report: F.clean, context: context).xml.contains(
            #"<testsuites name="mediactl audit" tests="27" failures="0" errors="0" time="0.000">"#))
        #expect(AuditJUnitReport(report: F.clean, context: context).xml.contains(#"timestamp="1970-01-01T00:00:00">"#))
    }

    @Test func secondsHaveThreeDecimals() {
        #expect(AuditReportContext.seconds(milliseconds: 0) == "0.000")
        #expect(AuditReportContext.seconds(milliseconds: 5) == "0.005")
        #expect(AuditReportContext.seconds(milliseconds: 12_345) == "12.345")
        #expect(AuditReportContext.seconds(milliseconds: 3_600_000) == "3600.000")
        #expect(AuditReportContext.seconds(milliseconds: -3) == "0.000")
    }
}
