import Foundation
import MediaSigning
import Testing

/// Every refusal of a signed URL, with its exact problem+json, against the built binary; none reaches the origin.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct SignedURLRefusalTests {
    static func problem(_ status: Int, _ title: String, _ code: String, _ detail: String) -> String {
        let escaped = detail.replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"code":"\#(code)","detail":"\#(escaped)","status":\#(status),"title":"\#(title)","type":"https://mediactl.dev/problems/\#(code)"}"#
    }

    static let malformedPath = "the path of a signed URL must be in canonical form (docs/signed-urls.md, \"Paths\")"

    @Test func everyRefusalWithItsExactProblem() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        try signed.world.start()
        let good = try signed.sign("/receipts/r-7731.png", query: "w=144", subject: "alice")
        let sig = String(good.split(separator: "&").last!)   // sig=…
        let forbidden = "Forbidden"
        let cases: [(String, String, String)] = [
            (try signed.sign("/receipts/r-7731.png", subject: "alice", in: -5), "signature-expired", "the signed URL has expired"),
            (try signed.sign("/receipts/r-7731.png", subject: "alice", in: 2000), "signature-lifetime-too-long",
             "the signed URL expires more than maxLifetime (900 s) ahead"),
            (try signed.sign("/receipts/r-7731.png", subject: "alice", kid: "2027-01"), "unknown-key-id",
             "the URL is signed with a key id this tier does not know"),
            (good.replacingOccurrences(of: "w=144", with: "w=288"), "signature-invalid", "the URL's signature does not verify"),
            (good.replacingOccurrences(of: "sub=alice", with: "sub=bob"), "signature-invalid", "the URL's signature does not verify"),
            (good.replacingOccurrences(of: "r-7731.png", with: "r-7732.jpg"), "signature-invalid", "the URL's signature does not verify"),
            (good + "&" + sig, "signature-malformed", "the signed URL's sig parameter is repeated"),
            (good.replacingOccurrences(of: "&" + sig, with: ""), "signature-malformed", "the signed URL's sig parameter is missing"),
            (good.replacingOccurrences(of: "exp=", with: "exp=0"), "signature-malformed", "the signed URL's exp parameter is not Unix seconds"),
            (good.replacingOccurrences(of: "sub=alice", with: "sub=al%20ice"), "signature-malformed",
             "the signed URL's sub parameter is not 1 to 128 of A-Z a-z 0-9 . _ -"),
            (good.replacingOccurrences(of: "/receipts/r-7731.png", with: "/receipts/r-7731.png/../r-7732.jpg"), "signature-malformed", Self.malformedPath),
            (good.replacingOccurrences(of: "/receipts/r-7731.png", with: "/receipts/a%2Fr-7731.png"), "signature-malformed", Self.malformedPath),
            (good.replacingOccurrences(of: "/receipts/", with: "/%72eceipts/"), "signature-malformed", Self.malformedPath),
            (good.replacingOccurrences(of: "/receipts/", with: "/receipts//"), "signature-malformed", Self.malformedPath),
            (good.replacingOccurrences(of: "/receipts/", with: "/attachments/"), "signature-invalid",
             "route attachments does not accept signed URLs"),
        ]
        for (target, code, detail) in cases {
            let answer = try signed.world.get(target)
            #expect(answer.status == 403, "\(target)")
            #expect(answer.text == Self.problem(403, forbidden, code, detail), "\(target)")
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(answer.header("Referrer-Policy") == "no-referrer")
            #expect(answer.header("Cache-Control") == "no-store")
        }
        // A lower-case percent-encoding the signer never makes, for a path of its own.
        let lower = try signed.sign("/receipts/caf%C3%A9.png", subject: "alice").replacingOccurrences(of: "%C3%A9", with: "%c3%a9")
        #expect(try signed.world.get(lower).problemCode == "signature-malformed")
        let unsigned = try signed.world.get("/receipts/r-7731.png", token: "t1")
        #expect(unsigned.status == 401)
        #expect(unsigned.text == Self.problem(401, "Unauthorized", "signature-required", "tier signed-private answers signed URLs only"))
        #expect(unsigned.header("WWW-Authenticate") == "Mediactl-Signed-URL realm=\"signed-private\"")
        #expect(unsigned.header("Referrer-Policy") == "no-referrer")
        #expect(signed.signedLog.isEmpty)
        #expect(signed.world.origin.accessLog.isEmpty)
        // Paths the router refuses (`..`, `%2F`, `//`) are refused before a route, so before a tier, is known:
        // they are not counted per tier.
        let metrics = try signed.world.admin("/_mediactl/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix("mediactl_signed_url_requests_total{") }
        #expect(metrics == [
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="verified"} 0"#,
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="signature-required"} 1"#,
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="signature-malformed"} 6"#,
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="unknown-key-id"} 1"#,
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="signature-invalid"} 3"#,
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="signature-expired"} 1"#,
            #"mediactl_signed_url_requests_total{tier="signed-private",outcome="signature-lifetime-too-long"} 1"#,
        ])
    }
}
