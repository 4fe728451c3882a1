import Foundation
import MediaCore
import MediaCrypto
import Testing

/// Hardening item 8 of issue 22 against the built binary and a real nginx origin: a disk file whose body was
/// swapped by someone who can write `disk/` but not read `keys/integrity.key` (its checksums recomputed the old,
/// unkeyed way) is reported by `mediactl audit` as `body-mismatch`, and `mediactl serve` refuses it as corrupt:
/// the next request is a miss to the origin, and the audit is clean again.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct IntegrityEndToEndTests {
    static let horse = "catalog/horse-d29d871c.jpg"
    static let coffee = "catalog/coffee-237a7131.jpg"
    static let stored = "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; detail=disk"

    /// The install's body key, derived as docs/storage.md says: HMAC-SHA256(secret, "mediactl-body-digest-v1").
    static func bodyKey(_ world: ServeEnvironment) throws -> SymmetricKey {
        let secret = try Data(contentsOf: world.stateDirectory.appendingPathComponent("keys/integrity.key"))
        #expect(secret.count == 32)
        return SymmetricKey(bytes: try HMACSHA256.authenticationCode(for: "mediactl-body-digest-v1",
                                                                      key: SymmetricKey(bytes: Array(secret))))
    }

    static func hex(_ key: SymmetricKey, _ body: [UInt8]) throws -> String {
        Hex.encode(try HMACSHA256.authenticationCode(for: body, key: key))
    }

    @Test func aForgedDiskFileIsReportedAndRefusedAsCorrupt() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let horse = Fixtures.bytes(Self.horse), coffee = Fixtures.bytes(Self.coffee)
        for (path, body) in [(Self.horse, horse), (Self.coffee, coffee)] {
            let first = try world.get("/" + path)
            #expect(first.status == 200)
            #expect(first.body == body)
            #expect(first.header("Cache-Status") == Self.stored)
        }
        try world.settle()
        #expect(world.stop() == 0)

        // The key: 0600, made by the first start; the store records name each body's keyed digest.
        let keyPath = world.stateDirectory.appendingPathComponent("keys/integrity.key").path
        #expect(try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int == 0o600)
        let bodyKey = try Self.bodyKey(world)
        let stores = world.auditRecords.filter { $0.event == "store" }
        #expect(stores.map(\.bodyDigest) == [try Self.hex(bodyKey, horse), try Self.hex(bodyKey, coffee)])
        #expect(stores.map(\.bytes) == [horse.count, coffee.count])
        #expect(try world.run(["audit", "--policies", world.policiesDirectory.path]).exitCode == 0)

        // Forge both files without the key.
        func file(_ key: String) -> URL {
            world.stateDirectory.appendingPathComponent("disk/public/\(key.prefix(2))/\(key.dropFirst(2).prefix(2))/\(key)")
        }
        let (horseKey, coffeeKey) = (try #require(stores[0].key), try #require(stores[1].key))
        let replacement = Array(Fixtures.bytes("catalog/rocket-cfc075d1.jpg"))
        let forgedHorse = DiskFileForgery.forged(Array(try Data(contentsOf: file(horseKey))), body: replacement)
        try Data(forgedHorse).write(to: file(horseKey))
        let reversed = Array(coffee.reversed())
        let forgedCoffee = DiskFileForgery.forgedBehindTheHeader(Array(try Data(contentsOf: file(coffeeKey))), body: reversed)
        try Data(forgedCoffee).write(to: file(coffeeKey))

        // The audit names both, in key order, with the bodies' lengths and keyed digests.
        let audit = try world.run(["audit", "--policies", world.policiesDirectory.path])
        #expect(audit.exitCode == 1)
        func line(_ key: String, _ record: AuditLine, size: Int, body: [UInt8], recorded: [UInt8]) throws -> String {
            let path = "disk/public/\(key.prefix(2))/\(key.dropFirst(2).prefix(2))/\(key)"
            return "  body-mismatch tier=public folder=disk key=\(key) seq=\(record.seq): \(path) (\(size) bytes) holds a body of "
                + "\(body.count) bytes with digest \(try Self.hex(bodyKey, body).prefix(16))…; store record \(record.seq) recorded "
                + "\(recorded.count) bytes with digest \(try Self.hex(bodyKey, recorded).prefix(16))…"
        }
        let lines = [
            try line(horseKey, stores[0], size: forgedHorse.count, body: replacement, recorded: horse),
            try line(coffeeKey, stores[1], size: forgedCoffee.count, body: reversed, recorded: coffee),
        ].sorted()
        #expect(audit.stdout.contains("\nviolations: 2\n" + lines.joined(separator: "\n") + "\n"))
        #expect(audit.stdout.contains("  not-a-disk-entry disk/public/\(horseKey.prefix(2))/\(horseKey.dropFirst(2).prefix(2))/\(horseKey): bad-checksum\n"))
        let (_, document) = try world.audit()
        #expect(try #require(document).violations.map(\.kind) == ["body-mismatch", "body-mismatch"])

        // The service refuses both as corrupt: the horse at the start (its header checksum is unkeyed), the coffee
        // at its first read. Each request is a miss to the origin, stored again.
        try world.start()
        for (path, body) in [(Self.horse, horse), (Self.coffee, coffee)] {
            let again = try world.get("/" + path)
            #expect(again.status == 200)
            #expect(again.body == body)
            #expect(again.header("Cache-Status") == Self.stored)
            #expect(world.origin.accessLog(prefix: "/" + path, count: 2)
                == Array(repeating: "/\(path) auth=- inm=- xfh=- fwd=- status=200", count: 2))
        }
        let hit = try world.get("/" + Self.coffee)
        #expect(hit.cacheStatus.hit)
        #expect(hit.body == coffee)
        #expect(try world.admin("/_mediactl/metrics").text.contains("\nmediactl_evicted_total{tier=\"public\"} 2\n"))
        try world.settle()
        let evictions = world.auditRecords.filter { $0.event == "evict" }
        #expect(evictions.map(\.reason) == ["corrupt:bad-checksum", "corrupt:bad-checksum"])
        #expect(evictions.map(\.key) == [horseKey, coffeeKey])
        #expect(evictions.map(\.storage) == ["disk", "disk"])
        let clean = try world.run(["audit", "--policies", world.policiesDirectory.path])
        #expect(clean.exitCode == 0)
        #expect(clean.stdout.contains("\nclean: no violations\n"))
    }
}
