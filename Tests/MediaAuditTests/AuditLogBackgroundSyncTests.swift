import Foundation
import Glibc
import MediaAudit
import Testing

/// Group commit: batched fsyncs on the log's own thread; lines written before `append` returns.
@Suite struct AuditLogBackgroundSyncTests {
    /// Polls `condition` every millisecond for up to 10 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    @Test func defaultConfigurationSyncsInBackground() {
        #expect(AuditLog.Configuration().syncsInBackground)
        #expect(!AuditLog.Configuration(syncsInBackground: false).syncsInBackground)
    }

    @Test func linesAreInTheFileWhenAppendReturnsAndInOrder() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(syncEveryRecords: 4),
                               clock: TestClock().clock)
        var written: [AuditRecord] = []
        for index in 0..<10 {
            written.append(try log.append(storeEntry("k\(index)")))
            // Written by `write(2)` before `append` returned, whatever the background thread does.
            #expect(dir.lines().count == index + 1)
        }
        #expect(dir.lines() == written.map { $0.line.dropLast().description })
        #expect(written.map(\.seq) == Array(1...10))
        for (previous, record) in zip(written, written.dropFirst()) { #expect(record.prev == previous.hash) }
        try log.close()
        let report = try AuditVerifier.verify(directory: dir.path + "/audit")
        #expect(report.isIntact)
        #expect(report.recordCount == 10)
    }

    @Test func batchesAreSyncedByTheBackgroundThread() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        // A long idle interval: only the count triggers a sync here.
        let log = try AuditLog(stateDirectory: dir.path,
                               configuration: .init(syncEveryRecords: 3, syncIntervalMilliseconds: 3_600_000),
                               clock: TestClock().clock)
        try log.append(storeEntry("a"))
        try log.append(storeEntry("b"))
        #expect(log.unsyncedRecords == 2)
        #expect(log.backgroundSyncCount == 0)
        try log.append(storeEntry("c"))
        #expect(Self.eventually { log.backgroundSyncCount == 1 && log.unsyncedRecords == 0 })
        try log.append(storeEntry("d"))
        #expect(log.unsyncedRecords == 1)
        try log.close()
    }

    @Test func flushAndCloseSyncEverythingBeforeReturning() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path,
                               configuration: .init(syncEveryRecords: 1000, syncIntervalMilliseconds: 3_600_000),
                               clock: TestClock().clock)
        for index in 0..<5 { try log.append(storeEntry("k\(index)")) }
        #expect(log.unsyncedRecords == 5)
        try log.flush()
        #expect(log.unsyncedRecords == 0)
        try log.append(storeEntry("last"))
        try log.close()
        #expect(log.unsyncedRecords == 0)
        #expect(dir.lines().count == 6)
        #expect(throws: AuditError.self) { try log.append(storeEntry("after")) }
    }

    @Test func aQuietLogIsSyncedAfterTheInterval() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        // Below the count, and the injected clock never advances: only the thread's idle wake-up syncs.
        let log = try AuditLog(stateDirectory: dir.path,
                               configuration: .init(syncEveryRecords: 1000, syncIntervalMilliseconds: 20),
                               clock: TestClock().clock)
        try log.append(storeEntry("a"))
        try log.append(storeEntry("b"))
        #expect(Self.eventually { log.unsyncedRecords == 0 && log.backgroundSyncCount >= 1 })
        let syncs = log.backgroundSyncCount
        usleep(100_000)
        // Nothing unsynced: idle wake-ups do not fsync again.
        #expect(log.backgroundSyncCount == syncs)
        try log.close()
    }

    @Test func concurrentAppendsKeepTheChainWithBackgroundSyncs() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(syncEveryRecords: 2))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 { _ = try? log.append(storeEntry("t\(thread)-\(index)")) }
        }
        try log.close()
        #expect(log.lastSeq == 400)
        let report = try AuditVerifier.verify(directory: dir.path + "/audit")
        #expect(report.isIntact)
        #expect(report.recordCount == 400)
    }

    @Test func reopenedLogContinuesAfterBackgroundSyncs() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        var last: AuditRecord?
        do {
            let log = try AuditLog(stateDirectory: dir.path, configuration: .init(syncEveryRecords: 2))
            for index in 0..<7 { last = try log.append(storeEntry("k\(index)")) }
            try log.close()
        }
        let reopened = try AuditLog(stateDirectory: dir.path)
        #expect(reopened.lastSeq == 7)
        #expect(reopened.lastHash == last?.hash)
        try reopened.close()
    }
}
