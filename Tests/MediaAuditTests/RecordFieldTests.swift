import MediaAudit
import MediaCrypto
import Testing

@Suite struct RecordFieldTests {
    @Test func digestAcceptsOnly64LowercaseHex() throws {
        let hex = "6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0"
        #expect(try AuditDigest(hex: hex).hex == hex)
        #expect(AuditDigest(SHA256.hash("k1")).hex == hex)
        #expect(AuditDigest.zero.hex == String(repeating: "0", count: 64))
        #expect(throws: AuditError(.invalidDigest, "expected 64 lower-case hex characters, got 64 bytes")) {
            try AuditDigest(hex: hex.uppercased())
        }
        #expect(throws: AuditError(.invalidDigest, "expected 64 lower-case hex characters, got 22 bytes")) {
            try AuditDigest(hex: "Bearer secret-token-U1")
        }
        #expect(throws: AuditError(.invalidDigest, "expected 64 lower-case hex characters, got 63 bytes")) {
            try AuditDigest(hex: String(hex.dropLast()))
        }
        #expect(throws: AuditError(.invalidDigest, "expected 32 digest bytes, got 31")) {
            try AuditDigest(bytes: [UInt8](repeating: 1, count: 31))
        }
        #expect(try AuditDigest(bytes: [UInt8](repeating: 0xab, count: 32)).hex == String(repeating: "ab", count: 32))
    }

    @Test func reasonCodeAcceptsOnlyStableCodes() throws {
        #expect(try ReasonCode("hook-narrowed:memory") == ReasonCode.hookNarrowed(to: .memory))
        #expect(try ReasonCode(String(repeating: "a", count: 64)).rawValue.count == 64)
        #expect(ReasonCode.repairedTornTail.rawValue == "repaired-torn-tail")
        for bad in ["", "Cookie: sid=abc", "Vary-Star", "a b", "tier_storage", String(repeating: "a", count: 65)] {
            #expect(throws: AuditError(.invalidReason, "expected [a-z0-9:-]{1,64}, got \(bad.utf8.count) bytes")) {
                try ReasonCode(bad)
            }
        }
    }

    @Test func namesRefuseFreeText() throws {
        #expect(try AuditName("no-store").rawValue == "no-store")
        #expect(try AuditName("Receipts_v2.1").rawValue == "Receipts_v2.1")
        for bad in ["", "Bearer abc", "a/b", "sid=1;", String(repeating: "n", count: 65)] {
            #expect(throws: AuditError(.invalidName, "expected [A-Za-z0-9._-]{1,64}, got \(bad.utf8.count) bytes")) {
                try AuditName(bad)
            }
        }
    }

    @Test func urlDropsQueryUserinfoAndFragment() throws {
        let url = try AuditURL("https://user:pw@IMG.example:8443/catalog/a%20b.jpg?token=secret&sig=1#frag")
        #expect(url.rawValue == "https://img.example:8443/catalog/a%20b.jpg")
        #expect(try AuditURL("http://127.0.0.1:8081").rawValue == "http://127.0.0.1:8081/")
        #expect(try AuditURL("http://[::1]:8081/x").rawValue == "http://[::1]:8081/x")
    }

    @Test func urlRefusesNonHTTPAndOverlong() throws {
        for bad in ["/catalog/a.jpg", "file:///etc/passwd", "ftp://h/x", "not a url", "https:///nohost"] {
            #expect(throws: AuditError(.invalidURL, "expected an absolute http or https URL with a host")) {
                try AuditURL(bad)
            }
        }
        #expect(throws: AuditError(.invalidURL, "the URL without query is longer than 2048 bytes")) {
            try AuditURL("https://h/" + String(repeating: "a", count: 2040))
        }
    }

    @Test func urlCannotBeAttachedToAPartition() throws {
        let url = try AuditURL("https://h/receipts/r-7731.png")
        #expect(throws: AuditError(.urlWithPartition, "a partitioned record cannot carry a url")) {
            try AuditScope(partition: digest("U1"), url: url)
        }
        #expect(try AuditScope(partition: nil, url: url) == .shared(url: url))
        #expect(try AuditScope(partition: digest("U1"), url: nil).partition == digest("U1"))
        #expect(AuditScope.partitioned(digest("U1")).url == nil)
    }

    @Test func negativeNumbersAreRefused() throws {
        #expect(throws: AuditError(.invalidNumber, "bytes must be >= 0, got -1")) {
            try AuditEntry(event: .store, bytes: -1).validate()
        }
        #expect(throws: AuditError(.invalidNumber, "ttl must be >= 0, got -5")) {
            try AuditEntry(event: .store, ttl: -5).validate()
        }
        #expect(throws: AuditError(.invalidNumber, "count must be >= 0, got -2")) {
            try AuditEntry(event: .purge, count: -2).validate()
        }
    }

    @Test func timeFormatsAndParsesRFC3339WithMilliseconds() {
        let time = AuditTime(millisecondsSinceEpoch: 1_795_950_435_123)
        #expect(time.rfc3339 == "2026-11-29T11:07:15.123Z")
        #expect(AuditTime(rfc3339: "2026-11-29T11:07:15.123Z") == time)
        #expect(AuditTime(millisecondsSinceEpoch: 0).rfc3339 == "1970-01-01T00:00:00.000Z")
        #expect(AuditTime(millisecondsSinceEpoch: 951_782_400_005).rfc3339 == "2000-02-29T00:00:00.005Z")
        #expect(AuditTime(millisecondsSinceEpoch: -1).rfc3339 == "1969-12-31T23:59:59.999Z")
        for bad in ["2026-11-29T11:07:15Z", "2026-11-29 11:07:15.123Z", "2026-02-30T00:00:00.000Z",
                    "2026-11-29T24:00:00.000Z", "2026-11-29T11:07:15.123+00:00"] {
            #expect(AuditTime(rfc3339: bad) == nil)
        }
    }

    @Test func storageWidthOrder() {
        #expect(AuditStorage.allCases.sorted() == [.none, .memory, .encryptedDisk, .disk])
        #expect(AuditStorage.encryptedDisk.rawValue == "encrypted-disk")
        #expect(AuditEvent.allCases.filter(\.removesObject) == [.evict, .expire, .purge, .invalidate, .shred])
    }
}
