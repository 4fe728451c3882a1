import MediaAudit
import MediaCTL
import Testing

/// `mediactl audit` notes a `start` that no `stop` preceded: the process before it crashed or was killed.
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
}
