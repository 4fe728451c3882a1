import Foundation
import Testing

/// An image origin that content-codes whatever the request asks (a pre-gzipped object served with
/// `Content-Encoding: gzip`, as object stores do): `mediactl serve` still serves and stores the
/// image's own bytes, without the origin's `Content-Encoding`.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ContentCodedOriginTests {
    @Test func aGzippedImageIsDecodedServedAndStored() throws {
        let coded = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-coded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: coded, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: coded) }
        let horse = Fixtures.bytes("catalog/horse-d29d871c.jpg")
        try Data(try Self.gzip(horse)).write(to: coded.appendingPathComponent("horse.jpg"))
        let world = try ServeEnvironment(
            extraRoutes: [.init(name: "coded", mount: "/coded/", originPath: "/coded/", tier: "public")],
            originServerConfig: """
            location /coded/ {
                alias \(coded.path)/;
                types { }
                default_type image/jpeg;
                add_header Content-Encoding gzip;
                add_header Cache-Control "max-age=600";
            }
            """)
        defer { world.tearDown() }
        try world.start()
        let first = try world.get("/coded/horse.jpg", headers: [("Accept-Encoding", "gzip")])
        #expect(first.status == 200)
        #expect(first.body == horse)
        #expect(first.header("Content-Encoding") == nil)
        #expect(first.header("Content-Type") == "image/jpeg")
        #expect(first.cacheStatus.stored)
        let second = try world.get("/coded/horse.jpg")
        #expect(second.body == horse)
        #expect(second.header("Content-Encoding") == nil)
        #expect(second.cacheStatus.hit)
    }

    /// `gzip -c -n` of `bytes`.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-gzip-\(UUID().uuidString)")
        try Data(bytes).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-n", input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(output)
    }
}
