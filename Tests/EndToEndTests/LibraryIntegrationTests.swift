import Foundation
import HTTPCaching
import MediaCore
import MediaCurl
import MediaPolicy
import MediaService
import Testing

/// The in-process use of docs/bff-integration.md §2, as written there, against a real nginx origin.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct LibraryIntegrationTests {
    /// The hook of the documentation, on the `avatars` route: memory only, at most 60 s.
    struct AvatarsInMemory: StorageHook {
        func willStore(_ proposal: StorageProposal, proposed: StorageChoice) -> StorageChoice? {
            proposal.route.name == "avatars" ? StorageChoice(storage: .memory, ttl: min(proposed.ttl, 60)) : proposed
        }
    }

    @Test func mediaServiceInProcess() async throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        let policies = try PolicyLoader().load(directory: world.policiesDirectory.path)
        let service = try MediaService(
            policies: policies, fetcher: try CurlOriginFetcher(),
            configuration: .init(stateDirectory: world.stateDirectory.path, hooks: [AvatarsInMemory()]))

        let catalog = await service.handle(ServiceRequest(target: "/catalog/horse-d29d871c.jpg"))
        #expect(catalog.status == 200)
        #expect(catalog.body == Fixtures.bytes("catalog/horse-d29d871c.jpg"))
        #expect(catalog.outcome.route == "catalog")
        #expect(catalog.outcome.storage == .stored(.disk))

        let avatar = await service.handle(ServiceRequest(target: "/avatars/u1001.jpg"))
        #expect(avatar.status == 200)
        #expect(avatar.outcome.storage == .stored(.memory))
        let avatarAgain = await service.handle(ServiceRequest(target: "/avatars/u1001.jpg"))
        #expect(CacheStatusValue(avatarAgain.fields["Cache-Status"] ?? "").hit)

        var fields = HTTPFields()
        fields.append("Authorization", "Bearer t1")
        let receipt = await service.handle(ServiceRequest(target: "/receipts/r-7731.png", fields: fields))
        #expect(receipt.status == 200)
        #expect(receipt.outcome.storage == .stored(.encryptedDisk))
        #expect(try service.purge(.credential(try BearerToken(token: "t1"))) == 1)

        await service.stop()
        let disk = world.stateDirectory.appendingPathComponent("disk")
        #expect(StateScan.objectFiles(under: disk) == StateScan.objectFiles(under: disk.appendingPathComponent("public"))
            .map { "public/" + $0 })
        #expect(StateScan.objectFiles(under: disk).count == 1)
        #expect(world.auditRecords.filter { $0.route == "avatars" }.map(\.storage) == ["memory"])
        #expect(world.auditRecords.last?.event == "stop")
        let (result, _) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)")
    }
}
