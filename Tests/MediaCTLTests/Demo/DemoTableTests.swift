import Testing

@testable import MediaCTL

@Suite struct DemoTableTests {
    @Test func rendersAlignedColumns() {
        let rows = [
            DemoRow(
                number: 1, step: DemoScript.Step("/catalog/a.jpg", .u1, "first", .storedMiss), status: 200,
                cacheStatus: "mediactl; fwd=uri-miss; stored", storage: "disk", bytes: 1234),
            DemoRow(
                number: 10, step: DemoScript.Step("/r/b.png", .anonymous, "no token", .refused(401)), status: 401,
                cacheStatus: nil, storage: "refused (credentials-required)", bytes: 7),
        ]
        #expect(
            DemoTable.render(rows) == """
                 #  request         user  status  bytes  what it shows
                    Cache-Status                    storage
                --  --------------  ----  ------  -----  -------------
                 1  /catalog/a.jpg  U1       200   1234  first
                    mediactl; fwd=uri-miss; stored  disk
                10  /r/b.png        anon     401      7  no token
                    -                               refused (credentials-required)

                """)
    }

    @Test func expectations() {
        let stored = "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk"
        #expect(DemoScript.Expectation.storedMiss.isMet(status: 200, cacheStatus: stored))
        #expect(!DemoScript.Expectation.storedMiss.isMet(status: 200, cacheStatus: "mediactl; fwd=uri-miss; detail=x"))
        #expect(!DemoScript.Expectation.storedMiss.isMet(status: 502, cacheStatus: stored))
        #expect(DemoScript.Expectation.hit.isMet(status: 200, cacheStatus: "mediactl; hit; ttl=5"))
        #expect(!DemoScript.Expectation.hit.isMet(status: 200, cacheStatus: stored))
        #expect(
            DemoScript.Expectation.unstoredMiss.isMet(
                status: 200, cacheStatus: "mediactl; fwd=uri-miss; fwd-status=200; detail=response-no-store"))
        #expect(!DemoScript.Expectation.unstoredMiss.isMet(status: 200, cacheStatus: stored))
        #expect(!DemoScript.Expectation.unstoredMiss.isMet(status: 200, cacheStatus: "mediactl; fwd=uri-miss"))
        #expect(DemoScript.Expectation.refused(401).isMet(status: 401, cacheStatus: nil))
        #expect(!DemoScript.Expectation.refused(401).isMet(status: 401, cacheStatus: "mediactl; hit"))
        #expect(!DemoScript.Expectation.hit.isMet(status: 200, cacheStatus: nil))
    }

    @Test func storageText() {
        let hit = ServiceOutcomeFixture.outcome(storage: "hit", reason: nil)
        #expect(DemoCommand.storageText(hit, status: 200, storedIn: "disk") == "hit (disk)")
        #expect(DemoCommand.storageText(hit, status: 200, storedIn: nil) == "hit")
        let none = ServiceOutcomeFixture.outcome(storage: "none", reason: "vary-star")
        #expect(DemoCommand.storageText(none, status: 200, storedIn: nil) == "none (vary-star)")
        let refused = ServiceOutcomeFixture.outcome(storage: nil, reason: "credentials-required")
        #expect(DemoCommand.storageText(refused, status: 401, storedIn: nil) == "refused (credentials-required)")
        #expect(DemoCommand.storageText(nil, status: 200, storedIn: nil) == "-")
        #expect(
            DemoCommand.storageText(ServiceOutcomeFixture.outcome(storage: "memory", reason: "x"), status: 200, storedIn: nil)
                == "memory")
    }
}
