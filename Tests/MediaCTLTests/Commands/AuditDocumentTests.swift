import Foundation
import MediaAudit
import MediaCTL
import MediaStorage
import Testing

/// `mediactl audit`'s log notes: a `start` that no `stop` preceded (the process before it crashed or was
/// killed), a `start` that cut a torn or unparsable last line, and a `serve.json` whose process is gone.
@Suite struct AuditDocumentTests {
    private func records(_ events: [AuditEvent]) -> [AuditRecord] {
        events.enumerated().map { index, event in
            AuditRecord(seq: index + 1, time: AuditTime(millisecondsSinceEpoch: 1_800_000_000_000),
                        entry: AuditEntry(event: event), prev: .zero)
        }
    }

    @Test func startsWithoutAPrecedingStopAreUncleanStops() {
        #expect(AuditDocument.uncleanStops(records([.start, .store, .start, .stop, .start, .skip])) == [3])
        #expect(AuditDocument.uncleanStops(records([.start, .store, .stop, .start])) == [])
        #expect(AuditDocument.uncleanStops(records([.start])) == [])
        #expect(AuditDocument.uncleanStops([]) == [])
    }

    @Test func repairedTailsAndADeadServiceAreLogNotesInTextAndJSON() throws {
        var all = records([.start, .store, .stop, .start, .skip])
        all[3] = AuditRecord(seq: 4, time: all[3].time, entry: AuditEntry(event: .start, reason: .repairedTornTail, bytes: 120),
                             prev: .zero)
        var notes = AuditDocument.LogNotes()
        for record in all { notes.add(record) }
        let report = AuditReconciler.report(
            records: all, verification: AuditVerification(recordCount: 5, lastHash: .zero, failure: nil),
            inventory: [], allowedStorage: [:])
        let document = AuditDocument(report: report, inventory: StateInventory(items: []), notes: notes, deadServicePid: 4242)
        #expect(document.text.hasSuffix("""

            log notes: 2
              repaired-torn-tail at seq 4: 120 bytes of an incomplete or unparsable last line were cut from the log at that start (a write cut short by a crash, or an edit of the log's end)
              dead-service: serve.json names pid 4242, which is not running (the service was killed); its sealed files stay until the next start shreds them

            """))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(document)) as? [String: Any]
        #expect(json?["uncleanStops"] as? [Int] == [])
        #expect(json?["repairedTornTails"] as? [[String: Int]] == [["seq": 4, "bytes": 120]])
        #expect(json?["deadServicePid"] as? Int == 4242)
        let quiet = AuditDocument(report: report, inventory: StateInventory(items: []))
        let quietJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(quiet)) as? [String: Any]
        #expect(quietJSON?["deadServicePid"] is NSNull)
        #expect(!quiet.text.contains("log notes"))
    }
}
