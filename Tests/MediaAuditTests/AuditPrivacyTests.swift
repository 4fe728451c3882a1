import Foundation
import MediaAudit
import MediaCrypto
import Testing

/// What a service has in hand while serving, and what it may put into the log.
@Suite struct AuditPrivacyTests {
    static let token = "Bearer tok-U1-7f3a9c-secret"
    static let cookie = "sid=cookie-U1-b41d"
    static let privateURL = "http://127.0.0.1:8081/receipts/r-7731.png?sig=priv-sig-55"
    static let publicURL = "https://user:hunter2@img.example/catalog/coffee-237a7131.jpg?token=pub-token-99&v=3"
    static let body: [UInt8] = Array("\u{FF}\u{D8}JFIF-BODY-MARKER-U1".utf8)

    @Test func writtenLogContainsNoSecrets() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let partitionKey = SymmetricKey(bytes: [UInt8](repeating: 7, count: 32))
        let partition = try AuditDigest(bytes: try HMACSHA256.authenticationCode(for: Self.token, key: partitionKey))
        let privateKey = AuditDigest(SHA256.hash(Self.privateURL + partition.hex))
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        try log.append(AuditEntry(
            event: .store, tier: name("private"), route: name("receipts"), storage: .encryptedDisk, key: privateKey,
            scope: .partitioned(partition), reason: .tierStorage, bytes: Self.body.count, ttl: 600))
        try log.append(AuditEntry(
            event: .store, tier: name("public"), route: name("catalog"), storage: .disk,
            key: AuditDigest(SHA256.hash(Self.publicURL)), scope: .shared(url: try AuditURL(Self.publicURL)),
            reason: .tierStorage, bytes: Self.body.count, ttl: 31_536_000))
        try log.append(contentsOf: [
            AuditEntry(event: .purge, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
                       key: privateKey, scope: .partitioned(partition), reason: try ReasonCode("purge-credential")),
            AuditEntry(event: .purge, tier: name("private"), route: name("receipts"), scope: .partitioned(partition),
                       reason: try ReasonCode("purge-credential"), count: 1),
        ])
        try log.close()

        // Secrets cannot even be passed where the log takes text.
        #expect(throws: AuditError.self) { try ReasonCode(Self.cookie) }
        #expect(throws: AuditError.self) { try AuditName(Self.token) }
        #expect(throws: AuditError.self) { try AuditDigest(hex: Self.token) }
        #expect(throws: AuditError.self) { try AuditScope(partition: partition, url: try AuditURL(Self.privateURL)) }

        var everything = Data()
        for file in AuditReader.files(directory: dir.audit) {
            everything.append(try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        let text = String(decoding: everything, as: UTF8.self)
        #expect(text.contains("https://img.example/catalog/coffee-237a7131.jpg\""))
        for secret in ["tok-U1-7f3a9c-secret", "Bearer", "cookie-U1-b41d", "sid=", "r-7731", "/receipts/",
                       "priv-sig-55", "pub-token-99", "hunter2", "user:", "v=3", "JFIF-BODY-MARKER"] {
            #expect(!text.contains(secret), "log contains \(secret)")
        }
        #expect(everything.range(of: Data(Self.body)) == nil)
        #expect(try AuditVerifier.verify(directory: dir.audit).recordCount == 4)
    }
}
