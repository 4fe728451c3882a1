import Foundation
import Testing

@testable import MediaAudit
@testable import MediaAuditReports

/// `AuditFleet`: the totals of several replicas' reports and their JUnit and HTML renderings.
@Suite struct AuditFleetTests {
    typealias F = RenderingFixtures

    static var fleet: AuditFleet {
        AuditFleet(replicas: [
            AuditFleet.Replica(name: "/srv/a", report: F.clean, context: F.context),
            AuditFleet.Replica(name: "/srv/b", report: F.withViolations, context: AuditReportContext(
                generatedAt: AuditTime(millisecondsSinceEpoch: 0), notes: ["unclean-stop before seq 3: x"])),
        ])
    }

    @Test func totalsSumEveryRowAndNameTheReplicasWithViolations() {
        let totals = Self.fleet.totals
        #expect(totals.replicas == 2)
        #expect(totals.replicasWithViolations == ["/srv/b"])
        #expect(totals.brokenChains == ["/srv/b"])
        #expect(totals.recordCount == 7)
        #expect(totals.violationCount == 5)
        #expect(!totals.isClean)
        #expect(totals.objects == 5)
        #expect(totals.bytes == 87_638)
        #expect(totals.tiers == [
            .init(tier: F.hostileTier, allowedStorage: nil, rows: [F.row(.memory, stored: 1)]),
            .init(tier: "private", allowedStorage: .encryptedDisk,
                  rows: [F.row(.encryptedDisk, stored: 2, objects: 4, bytes: 81_236)]),
            .init(tier: "public", allowedStorage: .disk,
                  rows: [F.row(.disk, stored: 1, skipped: ["no-store": 2, "bad-status": 1], objects: 1, bytes: 6402)]),
        ])
    }

    @Test func rowsOfTheSameStorageAddUpSkipReasonsAndRowsSortWidestFirst() {
        var memory = F.row(.memory, stored: 2, skipped: ["no-store": 1], objects: 1, bytes: 10)
        memory.evicted = 3
        let a = AuditReport(
            chain: AuditVerification(recordCount: 1, lastHash: F.lastHash, failure: nil), recordCount: 1,
            tiers: [.init(tier: "public", allowedStorage: .disk, rows: [memory])], violations: [])
        let b = AuditReport(
            chain: AuditVerification(recordCount: 1, lastHash: F.lastHash, failure: nil), recordCount: 2,
            tiers: [.init(tier: "public", allowedStorage: .disk, rows: [
                F.row(.memory, skipped: ["no-store": 2, "vary-star": 1]), F.row(.disk, stored: 1, objects: 1, bytes: 5),
            ])], violations: [])
        let totals = AuditFleet(replicas: [
            .init(name: "a", report: a, context: F.context), .init(name: "b", report: b, context: F.context),
        ]).totals
        var summed = F.row(.memory, stored: 2, skipped: ["no-store": 3, "vary-star": 1], objects: 1, bytes: 10)
        summed.evicted = 3
        #expect(totals.tiers == [.init(tier: "public", allowedStorage: .disk, rows: [
            F.row(.disk, stored: 1, objects: 1, bytes: 5), summed,
        ])])
        #expect(totals.isClean)
        #expect(totals.recordCount == 3)
    }

    @Test func totalsJSONHasTheDocumentedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let clean = AuditFleet(replicas: [.init(name: "/srv/a", report: F.clean, context: F.context)]).totals
        let json = String(decoding: try encoder.encode(clean), as: UTF8.self)
        #expect(json.hasPrefix(
            #"{"brokenChains":[],"bytes":47020,"clean":true,"objects":3,"recordCount":3,"replicas":1,"replicasWithViolations":[],"tiers":[{"allowedStorage":"encrypted-disk","rows":["#))
        #expect(json.hasSuffix(#""tier":"public"}],"violations":0}"#))
    }

    @Test func junitPrefixesEverySuiteWithItsReplica() {
        let report = AuditFleetJUnitReport(fleet: Self.fleet, context: F.context)
        let suites = report.suites
        #expect(suites.map(\.name) == [
            "/srv/a: audit-log", "/srv/a: tier private", "/srv/a: tier public",
            "/srv/b: audit-log", "/srv/b: tier \(F.hostileTier)", "/srv/b: tier private", "/srv/b: tier unknown",
        ])
        #expect(suites.map { $0.cases.first?.classname ?? "" } == [
            "mediactl.replica-1.audit-log", "mediactl.replica-1.tier.private", "mediactl.replica-1.tier.public",
            "mediactl.replica-2.audit-log", "mediactl.replica-2.tier.\(F.hostileTier)", "mediactl.replica-2.tier.private",
            "mediactl.replica-2.tier.unknown",
        ])
        #expect(suites.map(\.failureCount) == [0, 0, 0, 1, 1, 2, 1])
        #expect(suites.allSatisfy { $0.properties.first == AuditJUnitReport.Property("stateDirectory", String($0.name.prefix(6))) })
        #expect(suites[3].output == ["unclean-stop before seq 3: x"])
        #expect(suites[0].output == [])
        let xml = report.xml
        #expect(xml.hasPrefix("""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="mediactl audit" tests="67" failures="5" errors="0" time="1.042">
              <testsuite name="/srv/a: audit-log" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">
                <properties>
                  <property name="stateDirectory" value="/srv/a"/>
                  <property name="records" value="3"/>
                  <property name="checkpointSeq" value="0"/>
                  <property name="lastHash" value="\(F.lastHash.hex)"/>
                  <property name="violations" value="0"/>
                  <property name="firstRecordTime" value="2026-11-29T10:07:15.123Z"/>
                  <property name="lastRecordTime" value="2026-11-29T11:07:14.123Z"/>
                </properties>
                <testcase name="chain intact" classname="mediactl.replica-1.audit-log" time="0.000"/>
              </testsuite>

            """))
        // Replica b's suites carry the fleet's timestamp, not its own context's.
        #expect(xml.contains(
            "  <testsuite name=\"/srv/b: audit-log\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000\" timestamp=\"2026-11-29T11:07:15\">\n"))
        #expect(xml.contains("    <system-out>unclean-stop before seq 3: x</system-out>\n"))
    }

    @Test func htmlShowsTheTotalsThenASectionPerReplica() throws {
        let page = AuditFleetHTMLReport(fleet: Self.fleet, context: F.context).html
        #expect(page.hasPrefix("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>mediactl audit: 2 replicas, 5 violations</title>

            """))
        #expect(page.contains("""
            <h1>mediactl audit: 2 replicas, 5 violations</h1>
            <h2 id="totals">Fleet totals</h2>
            <div class="table-wrap">
            <table class="cards">
            <thead><tr><th>replica</th><th>state directory</th><th>result</th><th>chain</th><th>records</th><th>objects</th><th>bytes</th></tr></thead>
            <tbody>
            <tr><td class="n" data-label="replica">1</td><td data-label="state directory"><code>/srv/a</code></td><td class="ok" data-label="result">clean</td><td class="ok" data-label="chain">intact</td><td class="n" data-label="records">3</td><td class="n" data-label="objects">3</td><td class="n" title="47020 bytes" data-label="bytes">45.9 KiB</td></tr>
            <tr><td class="n" data-label="replica">2</td><td data-label="state directory"><code>/srv/b</code></td><td class="bad" data-label="result">5 violations</td><td class="bad" data-label="chain">broken: hash-mismatch at seq 2</td><td class="n" data-label="records">4</td><td class="n" data-label="objects">2</td><td class="n" title="40618 bytes" data-label="bytes">39.7 KiB</td></tr>
            <tr><th colspan="2">fleet</th><td class="bad" data-label="result">5 violations</td><td class="bad" data-label="chain">1 of 2 intact</td><td class="n" data-label="records">7</td><td class="n" data-label="objects">5</td><td class="n" title="87638 bytes" data-label="bytes">85.6 KiB</td></tr>
            </tbody>
            </table>
            </div>

            """ + "<h3>tier "))
        #expect(page.contains("<h2 id=\"replica-1\">Replica 1: /srv/a</h2>\n<h3 id=\"replica-1-summary\">Summary</h3>\n<div class=\"table-wrap\">\n<table>\n"))
        #expect(page.contains("<h2 id=\"replica-2\">Replica 2: /srv/b</h2>\n<h3 id=\"replica-2-summary\">Summary</h3>\n"))
        #expect(page.contains("<h3 id=\"replica-2-violations\">Violations (5)</h3>\n"))
        #expect(page.contains("<h3 id=\"replica-1-checks\">Checks (27 run, 0 failed)</h3>\n"))
        #expect(page.contains("<h3 id=\"replica-2-checks\">Checks (40 run, 5 failed)</h3>\n"))
        #expect(page.contains("<h3 id=\"replica-2-policies\">Policies in force (0)</h3>\n<p>No policy record in the log.</p>\n"))
        #expect(page.contains("<h3 id=\"replica-1-tiers\">Tiers</h3>\n<h4>tier private (allows encrypted-disk)</h4>\n"))
        #expect(page.contains("<h3 id=\"replica-2-notes\">Notes</h3>\n<ul>\n<li>unclean-stop before seq 3: x</li>\n</ul>\n"))
        #expect(!page.contains("id=\"replica-1-notes\""))
        #expect(page.hasSuffix("</svg>\n<h3 id=\"replica-2-notes\">Notes</h3>\n<ul>\n<li>unclean-stop before seq 3: x</li>\n</ul>\n</body>\n</html>\n"))
        let summary = try HTMLCheck.check(page)
        #expect(summary.title == "mediactl audit: 2 replicas, 5 violations")
        #expect(summary.counts["h2"] == 3)
        #expect(summary.counts["svg"] == 2)
        #expect(summary.counts["div"] == summary.counts["table"])  // every table in its scrolling box
    }

    /// A single report's page is unchanged by the sections refactoring: headings `<h2>`, plain ids.
    @Test func theSingleReportPageKeepsItsHeadings() {
        let page = AuditHTMLReport(report: F.clean, context: F.context).html
        #expect(page.contains("<h1>mediactl audit: clean</h1>\n<h2 id=\"summary\">Summary</h2>\n"))
        #expect(page.contains("<h2 id=\"tiers\">Tiers</h2>\n<h3>tier private (allows encrypted-disk)</h3>\n"))
        #expect(!page.contains("replica"))
    }
}
