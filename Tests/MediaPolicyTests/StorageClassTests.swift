import MediaCore
import Testing
import MediaPolicy

@Suite struct StorageClassTests {
    @Test func orderedByWidth() {
        #expect(StorageClass.none < .memory)
        #expect(StorageClass.memory < .encryptedDisk)
        #expect(StorageClass.encryptedDisk < .disk)
        #expect(StorageClass.allCases.sorted() == [.none, .memory, .encryptedDisk, .disk])
        #expect(min(StorageClass.disk, .memory) == .memory)
        #expect(StorageClass.allCases.map(\.width) == [3, 2, 1, 0])
    }

    @Test func rawValuesAreTheContractSpellings() {
        #expect(StorageClass.allCases.map(\.rawValue) == ["disk", "encrypted-disk", "memory", "none"])
        #expect(StorageClass(rawValue: "encrypted-disk") == .encryptedDisk)
        #expect(StorageClass(rawValue: "Disk") == nil)
        #expect("\(StorageClass.encryptedDisk)" == "encrypted-disk")
    }

    @Test func persistence() {
        #expect(StorageClass.allCases.filter(\.isPersistent) == [.disk, .encryptedDisk])
    }

    @Test func tierRoleSpellings() {
        #expect(Tier.CacheRole.allCases.map(\.rawValue) == ["shared", "private"])
        #expect(Tier.CredentialPolicy.allCases.map(\.rawValue) == ["strip", "refuse", "bearer-required", "forward"])
        #expect(Tier.CredentialPolicy.allCases.filter(\.forwardsCredentials) == [.bearerRequired, .forward])
        #expect(Tier.Partition.allCases.map(\.rawValue) == ["none", "credential"])
        #expect(Route.Methods.allCases.map(\.rawValue) == ["read", "all"])
    }
}
