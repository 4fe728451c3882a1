import Testing
import HTTPServer

@Suite struct MallocTuningTests {
    @Test func glibcAcceptsAnArenaCap() {
        #expect(MallocTuning.limitArenas(to: 0))  // clamped to 1
        #expect(MallocTuning.limitArenas(to: 16))  // leave this test process near glibc's default (8 per core)
        let churn = (0..<64).map { [UInt8](repeating: UInt8($0), count: 256 << 10) }
        #expect(churn.count == 64)
        _ = MallocTuning.trim()  // whether pages were released depends on the heap; it must not fail
    }
}
