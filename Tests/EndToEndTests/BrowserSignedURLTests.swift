import Foundation
import Testing

/// A real Chromium on a page of another origin (the nginx origin's port; mediactl listens on its own): a private
/// receipt through `<img src="SIGNED-URL">` for two subjects, and a `fetch()` with `Authorization: Bearer` that passes
/// its preflight (docs/signed-urls.md, "CORS").
@Suite(.enabled(if: NginxOrigin.isAvailable && HeadlessChromium.isAvailable, "nginx and chromium are installed by scripts/test"),
       .serialized)
struct BrowserSignedURLTests {
    struct Result: Decodable, Equatable {
        struct Image: Decodable, Equatable { let width: Int, height: Int, digest: String }
        struct Fetch: Decodable, Equatable { let status: Int, bytes: Int, cacheStatus: String? }
        let alice: Image?, bob: Image?, fetch: Fetch?, error: String?
    }

    static func page(_ base: String, alice: String, bob: String) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>receipts</title></head>
        <body style="font: 16px sans-serif">
        <h1>Receipts</h1>
        <img id="alice" crossorigin="anonymous" src="\(base)\(alice)" alt="alice's receipt">
        <img id="bob" crossorigin="anonymous" src="\(base)\(bob)" alt="bob's receipt">
        <pre id="result">pending</pre>
        <script>
        async function read(id) {
          const image = document.getElementById(id);
          await image.decode();
          const canvas = document.createElement("canvas");
          canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
          const context = canvas.getContext("2d");
          context.drawImage(image, 0, 0);
          const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;   // throws if tainted
          const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", pixels));
          return { width: image.naturalWidth, height: image.naturalHeight,
                   digest: Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("") };
        }
        (async () => {
          const out = {};
          try {
            out.alice = await read("alice");
            out.bob = await read("bob");
            const answer = await fetch("\(base)/attachments/r-7732.jpg", { headers: { Authorization: "Bearer t1" } });
            out.fetch = { status: answer.status, bytes: (await answer.arrayBuffer()).byteLength,
                          cacheStatus: answer.headers.get("Cache-Status") };
          } catch (error) { out.error = String(error); }
          const text = JSON.stringify(out);
          document.getElementById("result").textContent = text;
          // Report to the page's own origin, whose access log the test reads.
          new Image().src = "/result?" + encodeURIComponent(text);
        })();
        </script>
        </body></html>
        """
    }

    @Test func aPageOfAnotherOriginShowsEachSubjectsReceiptAndFetchesWithABearer() throws {
        let pageFolder = FileManager.default.temporaryDirectory.appendingPathComponent("browser-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: pageFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: pageFolder) }
        let signed = try SignedURLWorld(extraServerConfig: """
            location /page/ { alias \(pageFolder.path)/; types { } default_type "text/html; charset=utf-8"; add_header Cache-Control "no-store"; }
            location = /result { return 204; }
            """)
        defer { signed.tearDown() }
        // The page's origin is the nginx origin (another port than mediactl's): the only origin the policy allows.
        let pageOrigin = signed.world.origin.baseURL
        let policy = signed.world.policiesDirectory.appendingPathComponent("e2e.json")
        try String(contentsOf: policy, encoding: .utf8).replacingOccurrences(of: "https://app.example.com", with: pageOrigin)
            .write(to: policy, atomically: true, encoding: .utf8)
        let log = signed.world.root.appendingPathComponent("access.log")
        try signed.world.start(extraArguments: ["--access-log", log.path])
        let base = "http://127.0.0.1:\(signed.world.port)"
        let alice = try signed.sign("/receipts/r-7731.png", query: "w=144", subject: "alice")
        let bob = try signed.sign("/receipts/r-7731.png", query: "w=144", subject: "bob")
        try Self.page(base, alice: alice, bob: bob).write(to: pageFolder.appendingPathComponent("index.html"), atomically: true,
                                                          encoding: .utf8)
        let browser = try HeadlessChromium.open(pageOrigin + "/page/index.html")
        let reported = signed.world.origin.accessLog(prefix: "/result?", count: 1, timeoutSeconds: 45)
        let console = browser.stderr
        browser.stop()
        let line = try #require(reported.first, "no result within 45 s; origin log: \(signed.world.origin.accessLog); mediactl: \((try? String(contentsOf: log, encoding: .utf8)) ?? "") \(signed.world.serve?.stderr ?? ""); chromium said: \(console.suffix(3000))")
        let encoded = String(line.dropFirst("/result?".count).prefix { $0 != " " })
        let json = try #require(encoded.removingPercentEncoding)
        let result = try JSONDecoder().decode(Result.self, from: Data(json.utf8))
        #expect(result.error == nil)
        // r-7731.png (384 × 191) for alice, r-7732.jpg (448 × 172) for bob: each at 144 px, never upscaled.
        #expect(result.alice?.width == 144)
        #expect(result.alice?.height == 72)
        #expect(result.bob?.width == 144)
        #expect(result.bob?.height == 55)
        #expect(result.alice?.digest != result.bob?.digest)
        #expect(result.alice?.digest.count == 64)
        #expect(result.fetch?.status == 200)
        #expect(result.fetch?.bytes == Fixtures.bytes("receipts/r-7732.jpg").count)
        #expect(result.fetch?.cacheStatus?.hasPrefix("mediactl; fwd=uri-miss") == true)
        // The preflight reached mediactl and never the origin, which saw the attachment's GET once.
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains("\"method\":\"OPTIONS\"") && $0.contains("\"status\":204") }.count == 1)
        #expect(signed.world.origin.accessLog.filter { $0.hasPrefix("/receipts/r-7732.jpg ") }
            == ["/receipts/r-7732.jpg auth=Bearer t1 inm=- xfh=- fwd=- status=200"])
        #expect(signed.signedLog.count == 2)
        let screenshot = signed.world.root.appendingPathComponent("receipts.png")
        try HeadlessChromium.screenshot(pageOrigin + "/page/index.html", to: screenshot)
        #expect(Array((try? Data(contentsOf: screenshot)).map { [UInt8]($0.prefix(4)) } ?? []) == [0x89, 0x50, 0x4E, 0x47])
        if let keep = ProcessInfo.processInfo.environment["MEDIACTL_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: screenshot.path, toPath: keep)
        }
    }
}
