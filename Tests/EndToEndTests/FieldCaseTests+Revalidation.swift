import Foundation
import Testing

extension FieldCaseTests {
    /// C14: a 304 freshens only the copy whose validator it names; a 304 naming nothing stored is
    /// ignored and the service fetches again without conditions.
    @Test func c14NotModifiedForTheWrongStoredResponse() throws {
        let world = try world()
        defer { world.tearDown() }
        #expect(try world.get("/c14/r-7731.png", token: "t1").header("ETag") == "\"a1\"")
        #expect(try world.get("/c14/r-7731.png", token: "t2").header("ETag") == "\"a2\"")
        let revalidated = try world.get("/c14/r-7731.png", token: "t2", headers: [("Cache-Control", "no-cache")])
        #expect(revalidated.status == 200)
        #expect(revalidated.body == Self.receipt)
        #expect(revalidated.header("ETag") == "\"a2\"")
        #expect(revalidated.cacheStatus.forwardStatus == "304")
        let u1 = try world.get("/c14/r-7731.png", token: "t1")
        #expect(u1.cacheStatus.hit)
        #expect(u1.header("ETag") == "\"a1\"")
        #expect(originLines(world, "/c14/", count: 3) == [
            "/c14/r-7731.png auth=Bearer t1 inm=- xfh=- fwd=- status=200",
            "/c14/r-7731.png auth=Bearer t2 inm=- xfh=- fwd=- status=200",
            "/c14/r-7731.png auth=Bearer t2 inm=\\x22a2\\x22 xfh=- fwd=- status=304",
        ])

        #expect(try world.get("/c14zz/r-7731.png", token: "t1").status == 200)
        let wrong = try world.get("/c14zz/r-7731.png", token: "t1", headers: [("Cache-Control", "no-cache")])
        #expect(wrong.status == 200)
        #expect(wrong.body == Self.receipt)
        #expect(wrong.header("ETag") == "\"a1\"")
        #expect(originLines(world, "/c14zz/", count: 3) == [
            "/c14zz/r-7731.png auth=Bearer t1 inm=- xfh=- fwd=- status=200",
            "/c14zz/r-7731.png auth=Bearer t1 inm=\\x22a1\\x22 xfh=- fwd=- status=304",
            "/c14zz/r-7731.png auth=Bearer t1 inm=- xfh=- fwd=- status=200",
        ])
    }
}
