import Foundation
import MediaCrypto
import MediaService
import Testing

/// The signed-URL issue's browser test ("Done when"): a real headless Chromium loads a page from another origin
/// than mediactl's; the page shows a private receipt through `<img src="SIGNED-URL">` for each of two subjects
/// and `fetch()`es an attachment with `Authorization: Bearer`, which passes its preflight. mediactl runs
/// docs/examples/signed-urls/policy.json (the page's origin in `allowOrigins`) against a real nginx origin that
/// answers the same signed path with a different receipt for each `Mediactl-Subject` (SignedURLBrowserWorld).
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"),
       .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (/usr/bin/chromium): scripts/test installs it"),
       .serialized)
struct BrowserSignedURLTests {
    /// The signed path (the origin answers it by subject) and the variant the page asks for.
    static let receiptPath = "/receipts/latest"
    static let receiptQuery = "w=144"
    static let attachmentPath = "/attachments/r-7732.jpg"
    /// What the page shows at `w=144`: r-7731.png is 384 × 191 (191 · 144 / 384 = 71.6 → 72), r-7732.jpg
    /// 448 × 172 (55.3 → 55).
    static let expectedSizes = ["user-a": [144, 72], "user-b": [144, 55]]
    /// The variant each subject's receipt is derived as (a PNG source stays PNG, a JPEG one JPEG at q=80).
    static let expectedVariants = ["user-a": "w=144,fit=inside,fmt=png", "user-b": "w=144,fit=inside,fmt=jpeg,q=80"]
    /// What Chromium logs (`--enable-logging=stderr`: `INFO:CONSOLE:0] "Access to image at … has been blocked by CORS
    /// policy: …"`) for a request CORS or ORB blocked, a tainted canvas or a script error.
    static let blockedMarkers = ["blocked by CORS policy", "ERR_BLOCKED_BY", "Cross-Origin Read Blocking", "CORB", "tainted", "Uncaught"]
    /// The screenshot's viewport.
    static let screenshotSize = (width: 800, height: 600)

    @Test func chromiumShowsEachSubjectsSignedReceiptAndFetchesWithBearerAfterPreflight() throws {
        let world = try SignedURLBrowserWorld()
        defer { world.tearDown() }
        let subjects = SignedURLBrowserWorld.receipts.keys.sorted()
        let signed = try subjects.map { subject in
            (subject: subject, target: try world.signed(Self.receiptPath, query: Self.receiptQuery, subject: subject))
        }
        let page = try world.publishPage(BrowserTestPage.html(
            receipts: signed.map { ($0.subject, world.mediactlOrigin + $0.target) },
            attachmentURL: world.mediactlOrigin + Self.attachmentPath, token: "t1"))
        #expect(page.hasPrefix(world.pageOrigin) && world.pageOrigin != world.mediactlOrigin)

        // The page, in the browser.
        let run = try HeadlessChromium.dumpDOM(page)
        let diagnostics = "exit \(run.exitCode), timed out \(run.timedOut); stderr:\n\(Self.relevant(run.stderr))"
        #expect(!run.timedOut, "\(diagnostics)")
        #expect(run.exitCode == 0, "\(diagnostics)")
        let result = try #require(try BrowserTestPage.result(inDOM: run.stdout), "no result in the DOM; \(diagnostics)\n\(run.stdout)")
        for marker in Self.blockedMarkers {
            #expect(!run.stderr.localizedCaseInsensitiveContains(marker), "\(marker): \(diagnostics)")
        }

        // Both receipts decoded, at the exact size, readable pixels (CORS), and different (two subjects).
        #expect(result.receipts.keys.sorted() == subjects)
        for subject in subjects {
            let image = try #require(result.receipts[subject])
            #expect(image.error == nil, "\(subject): \(image.error ?? "")")
            #expect([image.width ?? -1, image.height ?? -1] == Self.expectedSizes[subject], "\(subject)")
            #expect(image.pixelsSHA256?.range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil, "\(subject)")
        }
        let digests = Set(subjects.compactMap { result.receipts[$0]?.pixelsSHA256 })
        #expect(digests.count == subjects.count, "the two subjects' receipts decoded to the same pixels")

        // The fetch passed its preflight and got the attachment unchanged (no metadata to strip), Cache-Status exposed.
        let attachment = Fixtures.bytes("receipts/r-7732.jpg")
        var fetched = result.attachment
        let cacheStatus = CacheStatusValue(fetched.cacheStatus ?? "")
        fetched.cacheStatus = nil
        #expect(fetched == BrowserTestPage.Fetched(status: 200, bytes: attachment.count, bodySHA256: SHA256.hash(attachment).hex,
                                                   contentType: "image/jpeg", cacheStatus: nil, error: nil))
        #expect(attachment.count == 20019)
        // `mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=encrypted-disk`, where ttl is the origin's
        // max-age=60 less the age its one-second Date gives the answer: 60, or 59 across a second boundary.
        #expect(cacheStatus.cacheName == "mediactl")
        #expect(cacheStatus.parameters.filter { $0.key != "ttl" }
                == ["fwd": "uri-miss", "fwd-status": "200", "stored": "", "detail": "encrypted-disk"], "\(cacheStatus.raw)")
        #expect(["59", "60"].contains(cacheStatus.parameters["ttl"] ?? ""), "\(cacheStatus.raw)")

        // mediactl saw the two image requests, the preflight and the fetch; the preflight it answered itself.
        let lines = SignedURLBrowserWorld.lines(world.accessLogURL, count: 4)
        let entries = try lines.map(Self.entry)
        let expected: [[String: String]] = subjects.map { subject in
            ["method": "GET", "route": "receipts", "tier": "signed-private", "status": "200", "cache": "miss",
             "origin_status": "200", "variant": Self.expectedVariants[subject] ?? ""]
        } + [
            ["method": "OPTIONS", "route": "attachments", "tier": "private", "status": "204", "cache": "null",
             "bytes": "0"],
            ["method": "GET", "route": "attachments", "tier": "private", "status": "200", "cache": "miss",
             "origin_status": "200", "bytes": "\(attachment.count)"],
        ]
        #expect(Self.sorted(entries.map(Self.projection)) == Self.sorted(expected), "\(lines)")
        let receiptPartitions = entries.filter { $0["route"] == "receipts" }.compactMap { $0["partition"] }
        let attachmentPartitions = entries.filter { $0["method"] == "GET" && $0["route"] == "attachments" }.compactMap { $0["partition"] }
        #expect(Set(receiptPartitions + attachmentPartitions).count == 3, "one partition per subject, apart from the bearer one")
        #expect(entries.first { $0["method"] == "OPTIONS" }?["partition"] == nil)
        let preflightStart = entries.first { $0["method"] == "OPTIONS" }?["time"] ?? "~"
        let fetchStart = entries.first { $0["method"] == "GET" && $0["route"] == "attachments" }?["time"] ?? ""
        #expect(preflightStart <= fetchStart, "the preflight came first")

        // The origin saw one request per subject, with the service token and the subject, and the attachment
        // with the user's token; no OPTIONS, no Origin and no Referer (the browser sends one, cut to the page's
        // origin by strict-origin-when-cross-origin; image tiers forward only their allow-list, HeaderHygiene).
        let originLines = SignedURLBrowserWorld.lines(world.originLogURL, count: 3)
        let token = SignedURLBrowserWorld.originToken
        #expect(originLines.sorted() == [
            "GET /receipts/r-7732.jpg sub=- auth=Bearer t1 origin=- referer=- status=200",
            "GET /signed/latest sub=user-a auth=Bearer \(token) origin=- referer=- status=200",
            "GET /signed/latest sub=user-b auth=Bearer \(token) origin=- referer=- status=200",
        ])
        #expect(world.pageLog.filter { $0.hasPrefix("GET /index.html ") } == ["GET /index.html sub=- auth=- origin=- referer=- status=200"])

        // The same signed URLs outside the browser: the bytes Chromium decoded have the sizes it reported.
        var bodies: [[UInt8]] = []
        for (subject, target) in signed {
            let response = try world.environment.get(target, headers: [("Origin", world.pageOrigin)])
            #expect(response.status == 200)
            #expect(response.header("Access-Control-Allow-Origin") == world.pageOrigin)
            #expect(response.cacheStatus.hit, "\(subject): \(response.header("Cache-Status") ?? "")")
            let info = try ImageValidator().validate(response.body)
            #expect([info.width, info.height] == Self.expectedSizes[subject], "\(subject)")
            bodies.append(response.body)
        }
        #expect(Set(bodies).count == 2)

        // One screenshot of the page (kept as .build/e2e-artifacts/BrowserSignedURLTests.png).
        let screenshot = world.environment.root.appendingPathComponent("page.png")
        let shot = try HeadlessChromium.screenshot(page, to: screenshot, width: Self.screenshotSize.width,
                                                   height: Self.screenshotSize.height)
        #expect(!shot.timedOut && shot.exitCode == 0, "\(shot.exitCode): \(Self.relevant(shot.stderr))")
        let png = try Array(Data(contentsOf: screenshot))
        let pngInfo = try ImageValidator().validate(png)
        #expect(pngInfo.format == .png)
        #expect(pngInfo.width == Self.screenshotSize.width)
        #expect(pngInfo.height == Self.screenshotSize.height)
        Self.keepArtifact(screenshot, as: "BrowserSignedURLTests.png")
        #expect(world.environment.stop() == 0)
    }

    // MARK: Helpers

    /// An access log line as strings (`null` for JSON null).
    static func entry(_ line: String) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        return object.mapValues { $0 is NSNull ? "null" : "\($0)" }
    }

    /// The fields of an entry the test compares exactly (`bytes` only where the test knows it: not for derived images).
    static func projection(_ entry: [String: String]) -> [String: String] {
        var keys = ["method", "route", "tier", "status", "cache", "origin_status", "variant"]
        if entry["route"] == "attachments" { keys.append("bytes") }
        return entry.filter { keys.contains($0.key) }
    }

    static func sorted(_ entries: [[String: String]]) -> [[String: String]] {
        entries.sorted { $0.sorted { $0.key < $1.key }.description < $1.sorted { $0.key < $1.key }.description }
    }

    /// Chromium's stderr without the D-Bus noise of a machine without a session bus.
    static func relevant(_ stderr: String) -> String {
        stderr.split(separator: "\n").filter { !$0.contains("dbus") }.suffix(40).joined(separator: "\n")
    }

    /// Copies `file` to `<package>/.build/e2e-artifacts/<name>` for people and CI to look at; best effort.
    static func keepArtifact(_ file: URL, as name: String) {
        let folder = MediactlProcess.packageRoot.appendingPathComponent(".build/e2e-artifacts")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)
        try? FileManager.default.copyItem(at: file, to: target)
    }
}
