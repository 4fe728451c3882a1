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

    @Test func transforms() {
        #expect(AuditTransform.isValid("w=288,h=288,fit=cover,fmt=webp,q=80"))
        #expect(AuditTransform.isValid("0123456789=,abcdefghijklmnopqrstuvwxyz"))
        #expect(AuditTransform.isValid(String(repeating: ",", count: 128)))
        #expect(!AuditTransform.isValid(String(repeating: ",", count: 129)))
        #expect(!AuditTransform.isValid(""))
        #expect(!AuditTransform.isValid("w=144&q=80"))
        #expect(!AuditTransform.isValid("fit=Inside"))
        #expect(!AuditTransform.isValid("w=144 "))
        #expect(!AuditTransform.isValid("w=1\u{0}"))
        #expect(!AuditTransform.isValid("fmt=caf\u{E9}"))
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
