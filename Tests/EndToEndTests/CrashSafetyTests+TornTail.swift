import Foundation
import Testing

extension CrashSafetyTests {
    /// A crash that tore the audit log's last line and left temp files: the next start truncates the
    /// torn line (start reason `repaired-torn-tail`, `bytes` = bytes removed) and removes the temp files.
    @Test func tornAuditTailAndTempFilesAreRepairedAtStart() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.stored)
        #expect(try world.get("/receipts/r-7731.png", token: "t1").cacheStatus.stored)
        try world.settle()   // the crash comes after both files landed
        world.crash()
        let intactRecords = world.auditRecords

        // What a crash mid-write leaves: half an audit line, and temp files next to objects.
        let torn = Array(#"{"bytes":5914,"count":null,"event":"sto"#.utf8)
        let log = try FileHandle(forWritingTo: world.stateDirectory.appendingPathComponent("audit/audit.jsonl"))
        try log.seekToEnd()
        try log.write(contentsOf: torn)
        try log.close()
        let objectPaths = StateScan.objectFiles(under: world.stateDirectory)
        #expect(objectPaths.count == 2)
        for path in objectPaths {
            let temp = world.stateDirectory.appendingPathComponent(path + ".tmp-0123456789abcdef")
            try Data(Fixtures.bytes("receipts/r-7731.png").prefix(100)).write(to: temp)
        }
        #expect(StateScan.tempFiles(under: world.stateDirectory).count == 2)
        #expect(try world.auditVerify().exitCode == 1)

        try world.start()
        #expect(StateScan.tempFiles(under: world.stateDirectory).isEmpty)
        let records = world.auditRecords
        #expect(Array(records.prefix(intactRecords.count)) == intactRecords)
        let start = try #require(records.dropFirst(intactRecords.count).first)
        #expect(start.event == "start")
        #expect(start.reason == "repaired-torn-tail")
        #expect(start.bytes == torn.count)
        #expect(start.seq == intactRecords.count + 1)
        #expect(start.prev == intactRecords.last?.hash)
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.hit)
        #expect(world.stop() == 0)
        #expect(try world.auditVerify().exitCode == 0)
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(report?.clean == true)
    }
}
