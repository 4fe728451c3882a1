import Foundation
import MediaService
import MediaTestSupport
import Testing

/// Derived images against the built binary and a real nginx origin, with the repository's default
/// policies (docs/variants.md, issue "Derived images": its "Done when" list, item by item).
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct VariantEndToEndTests {
    /// `/large/` and `/uploads/` with cache headers; `r-7732.jpg` refused (403) to every token but `Bearer t1`.
    static let originLocations = """
        location /large/ { add_header Cache-Control "public, max-age=31536000"; }
        location /uploads/ { add_header Cache-Control "max-age=60"; }
        location = /receipts/r-7732.jpg {
            if ($http_authorization != "Bearer t1") { return 403; }
            add_header Cache-Control "private, max-age=60";
        }
        """

    func world() throws -> ServeEnvironment {
        let world = try ServeEnvironment(originServerConfig: Self.originLocations,
                                         policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        try world.start()
        return world
    }

    @Test func largeImageAt144IsStoredAndHitWithOneOriginRequest() throws {
        let world = try world()
        defer { world.tearDown() }
        let miss = try world.get("/large/astronaut-4000.jpg?w=144")
        #expect(miss.status == 200)
        #expect(miss.header("Content-Type") == "image/jpeg")
        #expect(try ImageValidator().validate(miss.body).width == 144)
        #expect(miss.header("Cache-Status")?.contains("stored") == true)
        let hit = try world.get("/large/astronaut-4000.jpg?w=144")
        #expect(hit.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(hit.body == miss.body)
        #expect(world.origin.accessLog(prefix: "/large/astronaut-4000.jpg", count: 1).count == 1)
        let refused = try world.get("/large/astronaut-4000.jpg?w=145")
        #expect(refused.status == 400)
        #expect(refused.text.contains("\"code\":\"variant-not-allowed\""))
        #expect(refused.text.contains("w × dpr must be one of 72, 144, 288, 576, 1152"))
        let webp = try world.get("/large/astronaut-4000.jpg?w=576&fmt=auto", headers: [("Accept", "image/webp")])
        #expect(webp.header("Content-Type") == "image/webp")
        #expect(webp.header("Vary") == "Accept")
        #expect(world.origin.accessLog(prefix: "/large/astronaut-4000.jpg", count: 1).count == 1)
    }

    @Test func uploadIsStrippedLosslesslyAndItsVariantIsUpright() throws {
        let world = try world()
        defer { world.tearDown() }
        let original = Fixtures.bytes("uploads/gps-orient6.jpg")
        let served = try world.get("/uploads/gps-orient6.jpg")
        #expect(served.status == 200)
        // No serial number, camera make or model, capture time, or GPS IFD.
        for marker in ["SN-4417-2208", "Acme Optics", "Pocket 9", "2026:06:14 09:41:07"] {
            #expect(RawHTTP.firstRange(of: Array(marker.utf8), in: original) != nil, "the fixture has \(marker)")
            #expect(RawHTTP.firstRange(of: Array(marker.utf8), in: served.body) == nil, "\(marker)")
        }
        #expect(RawHTTP.firstRange(of: [0x25, 0x88, 0x04, 0x00], in: served.body) == nil)
        #expect(RawHTTP.firstRange(of: [0x88, 0x25, 0x00, 0x04], in: served.body) == nil)
        let sos: [UInt8] = [0xFF, 0xDA]
        let servedScan = try #require(RawHTTP.firstRange(of: sos, in: served.body))
        let originalScan = try #require(RawHTTP.firstRange(of: sos, in: original))
        #expect(Array(served.body[servedScan...]) == Array(original[originalScan...]))
        #expect(Self.orientation(served.body) == 6)
        let variant = try world.get("/uploads/gps-orient6.jpg?w=144")
        let info = try ImageValidator().validate(variant.body)
        #expect(info.width == 144)
        #expect((125...126).contains(info.height))
        #expect(RawHTTP.firstRange(of: Array("Exif".utf8), in: variant.body) == nil)
    }

    @Test func receiptVariantIsSealedPartitionedAndPurgedWithItsCredential() throws {
        let world = try world()
        defer { world.tearDown() }
        let source = Fixtures.bytes("receipts/r-7732.jpg")
        let first = try world.get("/receipts/r-7732.jpg?w=144", token: "t1")
        #expect(first.status == 200)
        #expect(try ImageValidator().validate(first.body).width == 144)
        #expect(first.cacheStatusOfAMinute == "mediactl; fwd=uri-miss; ttl=60; stored; detail=encrypted-disk")
        try world.settle()
        var files: [(String, [UInt8])] = []
        let enumerator = FileManager.default.enumerator(atPath: world.stateDirectory.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = world.stateDirectory.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append((relative, [UInt8](FileManager.default.contents(atPath: path) ?? Data())))
            }
        }
        #expect(files.contains { $0.0.hasPrefix("sealed/private/") })
        #expect(!files.contains { $0.0.hasPrefix("disk/private") })
        for (path, bytes) in files {
            for body in [first.body, source] {
                for start in stride(from: 0, to: body.count - 32, by: 32) {
                    if RawHTTP.firstRange(of: Array(body[start..<(start + 32)]), in: bytes) != nil {
                        Issue.record("\(path) holds a 32-byte run of a receipt at \(start)")
                        break
                    }
                }
            }
        }
        let other = try world.get("/receipts/r-7732.jpg?w=144", token: "t2")
        #expect(other.status == 403)
        #expect(other.body != first.body)
        let hit = try world.get("/receipts/r-7732.jpg?w=144", token: "t1")
        #expect(hit.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        let credential = world.root.appendingPathComponent("t1.txt")
        try "t1\n".write(to: credential, atomically: true, encoding: .utf8)
        let purge = try world.run(["purge", "--credential-file", credential.path])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "purged 2 entries\n")
        let after = try world.get("/receipts/r-7732.jpg?w=144", token: "t1")
        #expect(after.cacheStatusOfAMinute == "mediactl; fwd=uri-miss; ttl=60; stored; detail=encrypted-disk")
    }

    @Test func auditRecordsDerivationsAndIsClean() throws {
        let world = try world()
        defer { world.tearDown() }
        _ = try world.get("/large/astronaut-4000.jpg?w=144")
        _ = try world.get("/receipts/r-7732.jpg?w=144", token: "t1")
        try world.settle()
        let stores = world.auditRecords.filter { $0.event == "store" }
        let derived = stores.filter { $0.derivedFrom != nil }
        #expect(derived.map(\.transform) == ["w=144,fit=inside,fmt=jpeg,q=80", "w=144,fit=inside,fmt=jpeg,q=80"])
        for variant in derived {
            let source = stores.first { $0.key == variant.derivedFrom }
            #expect(source?.storage == variant.storage)
            #expect(source?.partition == variant.partition)
        }
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.violations.isEmpty == true)
    }

    /// The EXIF `Orientation` of a JPEG's APP1 segment, or `nil`.
    static func orientation(_ jpeg: [UInt8]) -> Int? {
        guard let exif = RawHTTP.firstRange(of: Array("Exif\0\0".utf8), in: jpeg) else { return nil }
        let tiff = exif + 6
        guard tiff + 8 <= jpeg.count else { return nil }
        let little = jpeg[tiff] == 0x49
        func u16(_ at: Int) -> Int {
            little ? Int(jpeg[at]) | Int(jpeg[at + 1]) << 8 : Int(jpeg[at]) << 8 | Int(jpeg[at + 1])
        }
        func u32(_ at: Int) -> Int { little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
        let ifd = tiff + u32(tiff + 4)
        guard ifd + 2 <= jpeg.count else { return nil }
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= jpeg.count else { return nil }
            if u16(at) == 0x0112 { return u16(at + 8) }
        }
        return nil
    }
}
