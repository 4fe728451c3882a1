import Foundation
import Glibc
import MediaTestSupport
import Testing

/// Hardening item 3 against the built binary: slow readers of one large stored image share one copy of it. The
/// bound is on memory, not time: 60 readers that read nothing would pin 60 copies of a 9 MiB body (540 MiB) if each
/// hit had its own; shared, the process grows by far less than one tenth of that. Both ways of sharing are tested:
/// a hot copy (the default 64 MiB tier allows 11 MiB per copy) and, on a tier whose hot copies are smaller than the
/// image (8 MiB of memory: 1.5 MiB per copy), the entry shared while any response holds it.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct SlowReaderMemoryTests {
    static func residentKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func slowReadersOfA9MiBImageShareOneCopy(ranged: Bool, beyondHotCopies: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A real JPEG grown to 9 MiB by comment segments (COM, 65,533 bytes each) after its SOI: a valid image.
        let horse = try Data(contentsOf: NginxOrigin.fixturesDirectory.appendingPathComponent("catalog/horse-d29d871c.jpg"))
        var big = Data(horse.prefix(2))
        for _ in 0..<144 { big += Data([0xFF, 0xFE, 0xFF, 0xFF]) + Data(repeating: 0x5A, count: 65_533) }
        big += horse.dropFirst(2)
        try big.write(to: folder.appendingPathComponent("big.jpg"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let routes = ServeEnvironment.defaultRoutes + [.init(name: "big", mount: "/big/", originPath: "/big/", tier: "public")]
        let world = try ServeEnvironment(
            originServerConfig: "location /big/ { alias \(folder.path)/; add_header Cache-Control \"public, max-age=600\"; }",
            policy: { base in
                let json = ServeEnvironment.policyJSON(originBase: base, routes: routes)
                return beyondHotCopies
                    ? json.replacingOccurrences(of: #""maxTTL": 31536000, "maxObjectBytes""#,
                                                with: #""memoryBytes": 8388608, "maxTTL": 31536000, "maxObjectBytes""#)
                    : json
            })
        defer { world.tearDown() }
        try world.start()
        let first = try world.get("/big/big.jpg")
        try #require(first.status == 200)
        #expect(first.body.count == big.count)
        try world.settle()
        let pid = try #require(world.serve?.pid)
        let before = Self.residentKiB(pid)
        var readers: [Int32] = []
        defer { for fd in readers { close(fd) } }
        for _ in 0..<60 {
            let fd = try RawHTTP.connect(port: world.port, timeoutSeconds: 10)
            var small: Int32 = 4_096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            let range = ranged ? "Range: bytes=1-\r\n" : ""
            try RawHTTP.write(fd, Array("GET /big/big.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\(range)\r\n".utf8))
            readers.append(fd)
        }
        // Every reader's answer has begun (its head is readable) and none reads further.
        for fd in readers {
            var head = [UInt8](repeating: 0, count: 12)
            #expect(recv(fd, &head, 12, Int32(MSG_WAITALL)) == 12)
            #expect(head == Array((ranged ? "HTTP/1.1 206" : "HTTP/1.1 200").utf8))
        }
        let grown = Self.residentKiB(pid) - before
        #expect(grown < 54 * 1024, "resident memory grew by \(grown) KiB for 60 readers")
        // A well-behaved client is served meanwhile.
        #expect(try world.get("/catalog/horse-d29d871c.jpg").status == 200)
    }
}
