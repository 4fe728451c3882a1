import Foundation
import Testing

extension FieldCaseTests {
    /// C06: client forwarding headers never reach the origin; a redirect is neither followed nor stored.
    @Test func c06ForwardingHeadersAndRedirects() throws {
        let world = try world()
        defer { world.tearDown() }
        let headers = [("X-Forwarded-Host", "evil.example"), ("Forwarded", "host=evil.example"),
                       ("X-Forwarded-For", "203.0.113.9")]
        let first = try world.get("/c06/horse-d29d871c.jpg", headers: headers)
        #expect(first.status == 200)
        #expect(first.body == Self.horse)
        #expect(first.cacheStatus.stored)
        #expect(originLines(world, "/c06/", count: 1) == ["/c06/horse-d29d871c.jpg auth=- inm=- xfh=- fwd=- status=200"])

        for _ in 0..<2 {
            let redirect = try world.get("/c06r/horse-d29d871c.jpg")
            #expect(redirect.status == 502)
            #expect(redirect.problemCode == "redirect-refused")
            #expect(redirect.header("Location") == nil)
        }
        #expect(originLines(world, "/c06r/", count: 2).count == 2)
        #expect(world.auditRecords.filter { $0.route == "c06r" }.map(\.event) == ["skip", "skip"])
    }
}
