import Foundation
import MediaSigning
import MediaTestSupport
import Testing

/// docs/examples/signed-urls/policy.json against a real nginx origin and the built binary: the subject is the
/// partition, the origin gets the service token and the subject, and nothing else (docs/signed-urls.md).
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct SignedURLEndToEndTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47], jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]

    @Test func eachSubjectGetsItsOwnReceiptAndTheOriginLearnsOnlyTheSubject() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        try signed.world.start()
        let signedAt = Date().timeIntervalSince1970
        let alice = try signed.sign("/receipts/r-7731.png", subject: "alice")
        let bob = try signed.sign("/receipts/r-7731.png", subject: "bob")
        let first = try signed.world.get(alice, headers: [("Mediactl-Subject", "bob"), ("Authorization", "Bearer t1"),
                                                          ("Origin", "https://app.example.com")])
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "image/png")
        #expect(Array(first.body.prefix(4)) == Self.png)
        #expect(first.header("Referrer-Policy") == "no-referrer")
        // The tier's `private, max-age=300`, never above the signature's remaining lifetime: 300 s from the whole second
        // it was signed in, less the whole seconds since (a loaded machine may take more than one).
        let elapsed = Int((Date().timeIntervalSince1970 - signedAt).rounded(.up))
        let cacheControl = first.header("Cache-Control") ?? ""
        #expect(cacheControl.hasPrefix("private, max-age="))
        let maxAge = Int(cacheControl.dropFirst("private, max-age=".count)) ?? -1
        #expect((299 - elapsed)...300 ~= maxAge, "max-age \(maxAge) after \(elapsed) s")
        #expect(first.cacheStatusOfAMinute == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=encrypted-disk")
        let second = try signed.world.get(bob)
        #expect(second.status == 200)
        #expect(second.header("Content-Type") == "image/jpeg")
        #expect(Array(second.body.prefix(3)) == Self.jpeg)
        #expect(second.body != first.body)
        for (target, body) in [(alice, first.body), (bob, second.body)] {
            let again = try signed.world.get(target)
            #expect(again.header("Cache-Status")?.hasPrefix("mediactl; hit; ttl=") == true)
            #expect(again.body == body)
        }
        // HEAD with a URL signed for GET: the same fields, no body.
        let head = try RawHTTP.request(port: signed.world.port, "HEAD", alice)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(first.body.count))
        // Two misses, two hits and a HEAD: each counted once, when answered (a miss is admitted twice).
        let verified = try signed.world.admin("/_mediactl/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix(#"mediactl_signed_url_requests_total{tier="signed-private",outcome="verified"}"#) }
        #expect(verified == [#"mediactl_signed_url_requests_total{tier="signed-private",outcome="verified"} 5"#])
        #expect(signed.signedLog == [
            "/signed/receipts/r-7731.png auth=Bearer \(SignedURLWorld.token) sub=alice origin=- status=200",
            "/signed/receipts/r-7731.png auth=Bearer \(SignedURLWorld.token) sub=bob origin=- status=200",
        ])
    }

    @Test func derivedImagesAreSignedToo() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        try signed.world.start()
        let thumbnail = try signed.sign("/receipts/r-7731.png", query: "w=144", subject: "alice")
        let answer = try signed.world.get(thumbnail)
        #expect(answer.status == 200)
        #expect(answer.header("Cache-Status")?.contains("stored") == true)
        let widened = try signed.world.get(thumbnail.replacingOccurrences(of: "w=144", with: "w=288"))
        #expect(widened.status == 403)
        #expect(widened.problemCode == "signature-invalid")
        #expect(try signed.world.get(thumbnail).header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        // The origin was asked for the source once, without the variant or signature parameters.
        #expect(signed.signedLog == ["/signed/receipts/r-7731.png auth=Bearer \(SignedURLWorld.token) sub=alice origin=- status=200"])
    }

    @Test func purgeBySubjectIsOneSubjectsLogout() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        try signed.world.start()
        let alice = try signed.sign("/receipts/r-7731.png", subject: "alice")
        let bob = try signed.sign("/receipts/r-7731.png", subject: "bob")
        _ = try signed.world.get(alice)
        _ = try signed.world.get(bob)
        let purge = try signed.world.run(["purge", "--subject", "alice"])
        #expect(purge.exitCode == 0)
        #expect(purge.stdout == "purged 1 entry\n")
        #expect(try signed.world.get(alice).header("Cache-Status")?.hasPrefix("mediactl; fwd=uri-miss") == true)
        #expect(try signed.world.get(bob).header("Cache-Status")?.hasPrefix("mediactl; hit; ttl=") == true)
        try signed.world.settle()
        let (audit, report) = try signed.world.audit()
        #expect(audit.exitCode == 0, "\(audit.stdout)\(audit.stderr)")
        #expect(report != nil)
        let records = signed.world.auditRecords
        let purges = records.filter { $0.event == "purge" }
        #expect(purges.map(\.reason) == ["purge-subject", "purge-subject"])
        #expect(purges.allSatisfy { $0.partition?.count == 64 })
        let stores = records.filter { $0.event == "store" }
        #expect(Set(stores.compactMap(\.partition)).count == 2)
        #expect(stores.allSatisfy { $0.url == nil })
        let invalid = try signed.world.run(["purge", "--subject", "a b"])
        #expect(invalid.exitCode == 64)
        #expect(invalid.stderr.hasPrefix("mediactl: invalid --subject: expected 1 to 128 of A-Z a-z 0-9 . _ -\n"))
    }
}
