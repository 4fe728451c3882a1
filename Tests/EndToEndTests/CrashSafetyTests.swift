import Foundation
import MediaTestSupport
import Synchronization
import Testing

/// Issue 7 item 3: SIGKILL `mediactl serve` in the middle of a write-heavy load, start it again on the
/// same state directory, and check that nothing corrupt is served, temp files are gone, the dead
/// process's sealed objects are shredded and audited, and the audit chain verifies.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct CrashSafetyTests {
    static let images = ["coffee-237a7131.jpg", "rocket-cfc075d1.jpg", "chelsea.png", "hubble-b981f74f.jpg"]

    @Test func sigkillDuringWritesThenRestart() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let port = world.port

        // Six writers, each fetching distinct URLs (a query counter) until the service dies.
        let completed = Atomic<Int>(0)
        let issued = Mutex<[String]>([])
        let writers = 6
        let done = DispatchGroup()
        for writer in 0..<writers {
            done.enter()
            Thread {
                defer { done.leave() }
                for counter in 0..<400 {
                    let isReceipt = writer == 0
                    let target = isReceipt
                        ? "/receipts/r-7732.jpg?n=\(counter)"
                        : "/catalog/\(Self.images[writer % Self.images.count])?w=\(writer)&n=\(counter)"
                    issued.withLock { $0.append(target) }
                    guard let response = try? RawHTTP.get(port: port, target, token: isReceipt ? "t1" : nil),
                          response.status == 200 else { return }
                    completed.add(1, ordering: .relaxed)
                }
            }.start()
        }
        // Kill once the load is well under way and files of both stores have landed (write-behind writes
        // them after the answers): poll with a deadline, no fixed sleep.
        let sealedFolder = world.stateDirectory.appendingPathComponent("sealed")
        let diskFolder = world.stateDirectory.appendingPathComponent("disk")
        func underWay() -> Bool {
            completed.load(ordering: .relaxed) >= 60 && !StateScan.objectFiles(under: sealedFolder).isEmpty
                && !StateScan.objectFiles(under: diskFolder).isEmpty
        }
        let deadline = Date().addingTimeInterval(20)
        while !underWay() && Date() < deadline { usleep(2_000) }
        #expect(underWay())
        world.crash()
        done.wait()

        let sealedBeforeRestart = StateScan.objectFiles(under: sealedFolder).count
        #expect(sealedBeforeRestart > 0)
        let logURL = world.stateDirectory.appendingPathComponent("audit/audit.jsonl")
        let logBytes = try Data(contentsOf: logURL)
        let tornTail = logBytes.last != 0x0A
        let recordsBeforeRestart = world.auditRecords.count

        try world.start()
        // Sealed objects of the dead process: shredded and audited at start; temp files removed.
        #expect(StateScan.objectFiles(under: sealedFolder).isEmpty)
        #expect(StateScan.tempFiles(under: world.stateDirectory).isEmpty)
        let afterRestart = Array(world.auditRecords.dropFirst(recordsBeforeRestart))
        let start = try #require(afterRestart.first)
        #expect(start.event == "start")
        if tornTail { #expect(start.reason == "repaired-torn-tail") }
        let shreds = afterRestart.filter { $0.event == "shred" && $0.key != nil }
        #expect(shreds.count == sealedBeforeRestart)
        #expect(shreds.allSatisfy { $0.reason == "unreadable-after-restart" && $0.storage == "encrypted-disk" })
        #expect(shreds.allSatisfy { $0.url == nil })
        // docs/audit-format.md "Purge and shred batches": per-key records, then one summary with `count`.
        // A dead process's sealed files are unreadable by design (its key is gone), so they name the tier of
        // their folder but no route or partition.
        #expect(shreds.allSatisfy { $0.tier == "private" && $0.route == nil && $0.partition == nil })
        let summary = afterRestart.first { $0.event == "shred" && $0.key == nil }
        #expect(summary?.count == sealedBeforeRestart)
        #expect(summary?.tier == "private")
        let verify = try world.auditVerify()
        #expect(verify.exitCode == 0, "\(verify.stdout)")

        // No corrupted object is served: every URL issued before the crash answers the fixture bytes.
        let targets = issued.withLock { $0 }
        var hits = 0
        for target in targets {
            let isReceipt = target.hasPrefix("/receipts/")
            let response = try world.get(target, token: isReceipt ? "t1" : nil)
            let fixture = isReceipt
                ? Fixtures.bytes("receipts/r-7732.jpg")
                : Fixtures.bytes("catalog/" + String(target.dropFirst("/catalog/".count).prefix { $0 != "?" }))
            #expect(response.status == 200, "\(target)")
            #expect(response.body == fixture, "\(target)")
            if response.cacheStatus.hit { hits += 1 }
        }
        // The disk tier kept (most of) what was written before the kill.
        #expect(hits > 0)
        #expect(world.stop() == 0)
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(report?.chain.intact == true)
    }
}
