import Testing
import HTTPServer

@Suite struct MallocTuningTests {
    @Test func glibcAcceptsAnArenaCap() {
        #expect(MallocTuning.limitArenas(to: 0))  // clamped to 1
        #expect(MallocTuning.limitArenas(to: 16))  // leave this test process near glibc's default (8 per core)
    }
}
