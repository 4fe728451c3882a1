import Foundation
import MediaAudit
import Synchronization
import Testing

@Suite struct AuditLogConcurrencyTests {
    @Test func eightThreadsKeepSeqAndChainIntact() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(
            stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 1 << 20), clock: TestClock().clock)
        let threads = 8
        let perThread = 1000
        let seqs = Mutex<[[Int]]>(Array(repeating: [], count: threads))
        let failures = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        for t in 0..<threads {
            let thread = Thread {
                var mine: [Int] = []
                for i in 0..<perThread {
                    do { mine.append(try log.append(storeEntry("t\(t)-\(i)")).seq) } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                }
                seqs.withLock { $0[t] = mine }
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<threads { done.wait() }
        try log.close()
        #expect(failures.load(ordering: .relaxed) == 0)
        let all = seqs.withLock { $0 }
        for mine in all { #expect(mine == mine.sorted() && Set(mine).count == perThread) }
        #expect(all.flatMap { $0 }.sorted() == Array(1...(threads * perThread)))
        let verification = try AuditVerifier.verify(directory: dir.audit)
        #expect(verification.failure == nil)
        #expect(verification.recordCount == 8000)
        #expect(verification.lastHash == log.lastHash)
        #expect(AuditReader.files(directory: dir.audit).count > 1)
    }
}
