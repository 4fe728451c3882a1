import MediaCore
import MediaPolicy
@testable import MediaService
import Testing

/// The audit storage class of each storage class has the same name.
@Suite struct AuditStorageMappingTests {
    @Test func everyStorageClassMapsToTheSameName() {
        for storage in StorageClass.allCases {
            #expect(ServiceAuditor.auditStorage(storage).rawValue == storage.rawValue)
        }
    }
}
