import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ComplianceTests {
    /// Issue 42: a real `kill -9` of `mediactl serve` between a purge's destruction of the partition's data key and the
    /// removal of its files (the crash seam `MEDIACTL_CRASH_BEFORE="encrypted-disk unlink"`). The sealed files left are
    /// `shredded-remnant` notes of `mediactl audit`, not violations; the next start removes them. No plaintext, and no
    /// file anybody could open, remains.
    @Test func aKillBetweenKeyDestructionAndFileRemovalLeavesShreddedRemnants() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start(environment: ["MEDIACTL_CRASH_BEFORE": "encrypted-disk unlink"])
        for path in ["receipts/r-7731.png", "receipts/r-7732.jpg"] {
            #expect(try world.get("/" + path, token: Self.u1).cacheStatus.stored)
        }
        let sealed = world.stateDirectory.appendingPathComponent("sealed")
        try world.settle()   // write-behind: every stored response has its file before the purge
        let remnants = StateScan.files(under: sealed).sorted()
        #expect(remnants.count == 2)

        let credentialFile = world.root.appendingPathComponent("u1.credential")
        try "Bearer \(Self.u1)\n".write(to: credentialFile, atomically: true, encoding: .utf8)
        let purge = try world.run(["purge", "--credential-file", credentialFile.path])
        #expect(purge.exitCode != 0)
        let killed = try #require(world.serve)
        let exited = Date().addingTimeInterval(10)
        while killed.isRunning && Date() < exited { usleep(20_000) }
        #expect(!killed.isRunning)
        #expect(world.stop() == 128 + SIGKILL)
        // The key destruction is recorded, the files are still there: sealed under a key that no longer exists.
        let records = world.auditRecords
        let shred = try #require(records.last)
        #expect(shred.event == "shred")
        #expect(shred.reason == "partition-key-destroyed")
        let stores = records.filter { $0.event == "store" && $0.storage == "encrypted-disk" }
        #expect(stores.count == 2)
        #expect(Set(stores.map(\.keyId)) == [shred.keyId])
        #expect(StateScan.files(under: sealed).sorted() == remnants)
        #expect(StateScan.filesContaining(Self.forbiddenSlices, under: world.stateDirectory) == [])

        let audit = try MediactlProcess.run(
            ["audit", "--state-dir", world.stateDirectory.path, "--policies", world.policiesDirectory.path])
        #expect(audit.exitCode == 0, "\(audit.stdout)\(audit.stderr)")
        let keyID = try #require(shred.keyId)
        for file in remnants {
            #expect(audit.stdout.contains("""
                  shredded-remnant sealed/\(file): its data key \(keyID) was destroyed at seq \(shred.seq) (a purge of its partition); nobody can open it, and the next start removes it\n
                """), "\(audit.stdout)")
        }

        // The next start removes them (each audited `shred`, an earlier process's file).
        try world.start()
        #expect(StateScan.files(under: sealed) == [])
        #expect(StateScan.filesContaining(Self.forbiddenSlices, under: world.stateDirectory) == [])
        #expect(world.stop() == 0)
        let after = try MediactlProcess.run(
            ["audit", "--state-dir", world.stateDirectory.path, "--policies", world.policiesDirectory.path])
        #expect(after.exitCode == 0, "\(after.stdout)\(after.stderr)")
        #expect(!after.stdout.contains("shredded-remnant"))
    }
}
