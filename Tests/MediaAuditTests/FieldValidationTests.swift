import Testing
@testable import MediaAudit

/// The byte-loop validators accept exactly their documented alphabets and lengths.
@Suite struct FieldValidationTests {
    @Test func auditNames() {
        #expect(AuditName.isValid("catalog_v2.public-A9"))
        #expect(AuditName.isValid(String(repeating: "a", count: 64)))
        #expect(!AuditName.isValid(String(repeating: "a", count: 65)))
        #expect(!AuditName.isValid(""))
        #expect(!AuditName.isValid("a b"))
        #expect(!AuditName.isValid("caf\u{E9}"))
        #expect(!AuditName.isValid("a/b"))
    }

    @Test func reasonCodes() {
        #expect(ReasonCode.isValid("store-failed"))
        #expect(ReasonCode.isValid("corrupt:tag-mismatch"))
        #expect(ReasonCode.isValid(String(repeating: "9", count: 64)))
        #expect(!ReasonCode.isValid(String(repeating: "9", count: 65)))
        #expect(!ReasonCode.isValid(""))
        #expect(!ReasonCode.isValid("Upper"))
        #expect(!ReasonCode.isValid("under_score"))
    }

    @Test func digestsAndURLs() throws {
        let hex = String(repeating: "0123456789abcdef", count: 4)
        #expect(AuditDigest.isValid(hex))
        #expect(!AuditDigest.isValid(hex.uppercased()))
        #expect(!AuditDigest.isValid(String(hex.dropLast())))
        #expect(try AuditURL("HTTPS://Example.COM:8443/a/b?q=1#f").rawValue == "https://example.com:8443/a/b")
        #expect(throws: AuditError.self) { try AuditURL("ftp://example.com/a") }
        #expect(throws: AuditError.self) { try AuditURL(reduced: "http://example.com/caf\u{E9}") }
        #expect(throws: AuditError.self) { try AuditURL(reduced: "http:/example.com/") }
    }
}
