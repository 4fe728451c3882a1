import Foundation
import Testing

/// Hostile files served by nginx under `/hostile/` on a public-tier route (C15–C17): refused with
/// 502 problem+json and the exact reason code, never stored, and the next normal image still works.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct HostileContentTests {
    /// Fixture → the problem code mediactl answers with.
    static let expectedCodes: [(file: String, code: String)] = [
        ("bomb-60000x60000.png", "over-pixel-limit"),
        ("bomb-12000x12000-valid.png", "over-pixel-limit"),
        ("script.svg", "not-an-image"),
        ("html-named.jpg", "not-an-image"),
        ("jpeg-with-html-tail.jpg", "trailing-data"),
        ("truncated.jpg", "truncated-image"),
        ("bad-crc.png", "corrupt-image"),
        ("empty.jpg", "empty-body"),
    ]

    @Test func everyHostileFileIsRefusedWithItsCode() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        var seen: [String: String] = [:]
        for (file, _) in Self.expectedCodes {
            let response = try world.get("/hostile/\(file)")
            #expect(response.status == 502, "\(file)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(file)")
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(file)")
            seen[file] = response.problemCode ?? "<no problem document>"
            #expect(!response.text.lowercased().contains("<html"), "\(file): no origin HTML echoed")
            #expect(!response.text.contains("<script"), "\(file): no origin script echoed")
        }
        #expect(seen == Dictionary(uniqueKeysWithValues: Self.expectedCodes.map { ($0.file, $0.code) }))

        // Nothing stored: no disk object, and each refusal is an audited skip with its code.
        try world.settle()
        #expect(StateScan.files(under: world.stateDirectory.appendingPathComponent("disk")).isEmpty)
        let skips = world.auditRecords.filter { $0.route == "hostile" }
        #expect(skips.map(\.event) == Array(repeating: "skip", count: Self.expectedCodes.count))
        #expect(skips.map(\.reason) == Self.expectedCodes.map(\.code))

        // The service still works.
        let normal = try world.get("/catalog/horse-d29d871c.jpg")
        #expect(normal.status == 200)
        #expect(normal.body == Fixtures.bytes("catalog/horse-d29d871c.jpg"))
    }
}
