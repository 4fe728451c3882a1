import Foundation
import MediaTestSupport
import Testing

/// The srcset ladder and client hints (docs/variants.md, "Responsive images") against the built binary and a real
/// nginx origin, with the repository's default policies (`maxDpr: 3`) and `clientHints` on the `avatar` tier; then in
/// a real headless Chromium at device scale factors 1, 2 and 3.
@Suite(.enabled(if: NginxOrigin.isAvailable), .serialized) struct ResponsiveImageEndToEndTests {
    static let originLocations = """
        location /large/ { add_header Cache-Control "public, max-age=31536000"; }
        """

    /// The default policies, the `avatar` tier's variants reading client hints, and `/hinted/` serving `/large/` on it.
    static func policy(originBase: String) throws -> String {
        let text = try ServeEnvironment.repositoryDefaultPolicy(originBase: originBase)
        guard let avatar = text.range(of: #""avatar":"#),
              let variants = text.range(of: #""jxl": 80 } }"#, range: avatar.upperBound..<text.endIndex)
        else { throw HeadlessChromium.Failure("Policies/default.json changed shape") }
        return text.replacingCharacters(in: variants, with: #""jxl": 80 }, "clientHints": true }"#)
            .replacingOccurrences(of: #""routes": ["#, with: """
                "routes": [
                    { "name": "hinted", "mount": "/hinted/", "origin": "\(originBase)/large/", "tier": "avatar" },
                """)
    }

    func world() throws -> ServeEnvironment {
        let world = try ServeEnvironment(originServerConfig: Self.originLocations, policy: Self.policy(originBase:))
        try world.start()
        return world
    }

    @Test func everyDensityIsServedOnTheLadderAndNeverEnlarged() throws {
        let world = try world()
        defer { world.tearDown() }
        // hubble-1000.jpg is 1000 × 872.
        let cases: [(query: String, width: Int, height: Int)] = [
            ("w=144&dpr=1", 144, 126), ("w=144&dpr=2", 288, 251), ("w=144&dpr=3", 576, 502), ("w=500&dpr=3", 1000, 872),
        ]
        for (query, width, height) in cases {
            let answer = try world.get("/large/hubble-1000.jpg?" + query)
            #expect(answer.status == 200, "\(query): \(answer.text)")
            #expect(answer.header("Mediactl-Image-Width") == String(width), "\(query)")
            #expect(answer.header("Mediactl-Image-Height") == String(height), "\(query)")
            #expect(answer.header("Vary") == nil, "\(query)")
        }
        // Keyed on the output width: ?w=576 and ?w=1152 are the objects stored above.
        for (query, width) in [("w=576", "576"), ("w=1152", "1000")] {
            let hit = try world.get("/large/hubble-1000.jpg?" + query)
            #expect(hit.header("Cache-Status")?.hasPrefix("mediactl; hit") == true, "\(query)")
            #expect(hit.header("Mediactl-Image-Width") == width, "\(query)")
        }
        // Without dpr, w must be a declared width.
        let refused = try world.get("/large/hubble-1000.jpg?w=100")
        #expect(refused.status == 400)
        #expect(refused.problemDetail == "w=100 is not allowed: w × dpr must be one of 72, 144, 288, 576, 1152")
        #expect(world.origin.accessLog(prefix: "/large/hubble-1000.jpg", count: 1).count == 1)
    }

    /// An animated GIF's variant is its first frame, and the answer says so (binary + nginx).
    @Test func anAnimatedSourcesVariantSaysItIsTheFirstFrame() throws {
        let world = try world()
        defer { world.tearDown() }
        for _ in 0..<2 {
            let answer = try world.get("/catalog/spinner.gif?w=72&fmt=webp")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Content-Type") == "image/webp")
            #expect(answer.header("Mediactl-Animation") == "first-frame; frames=24")
        }
        #expect(try world.get("/catalog/spinner.gif").header("Mediactl-Animation") == nil)
    }

    @Test func clientHintsChooseTheStepAndTheAnswerVaries() throws {
        let world = try world()
        defer { world.tearDown() }
        let cases: [(headers: [(String, String)], width: String, vary: String)] = [
            ([("Sec-CH-DPR", "3")], "576", "Sec-CH-Width, Sec-CH-DPR"),
            ([("Sec-CH-DPR", "2")], "288", "Sec-CH-Width, Sec-CH-DPR"),
            ([("Sec-CH-Width", "1000"), ("Sec-CH-DPR", "1")], "1000", "Sec-CH-Width"),
            ([], "144", "Sec-CH-Width, Sec-CH-DPR"),
        ]
        for (headers, width, vary) in cases {
            let answer = try world.get("/hinted/hubble-1000.jpg?w=144", headers: headers)
            #expect(answer.status == 200, "\(headers)")
            #expect(answer.header("Mediactl-Image-Width") == width, "\(headers)")
            #expect(answer.header("Vary") == vary, "\(headers)")
        }
        let again = try world.get("/hinted/hubble-1000.jpg?w=144", headers: [("Sec-CH-DPR", "3")])
        #expect(again.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(again.header("Mediactl-Image-Width") == "576")
    }

    /// The "Done when" browser check for the ladder: a page whose `<img srcset>` lists 1x, 2x and 3x candidates, in a
    /// real headless Chromium at `--force-device-scale-factor` 1, 2 and 3. Each picks its density's candidate and
    /// decodes it at the ladder's width (`naturalWidth` is density-corrected: × the factor gives the decoded width).
    @Test(.enabled(if: HeadlessChromium.isAvailable, "chromium is not installed: scripts/test installs it"))
    func chromiumLoadsEachDensityAtItsLadderWidth() throws {
        let world = try world()
        defer { world.tearDown() }
        let base = "http://127.0.0.1:\(world.port)/large/hubble-1000.jpg?w=144"
        let page = world.root.appendingPathComponent("srcset.html")
        try """
        <!doctype html><html><body>
        <img id="photo" width="144" height="144" src="\(base)&dpr=1"
             srcset="\(base)&dpr=1 1x, \(base)&dpr=2 2x, \(base)&dpr=3 3x">
        <pre id="result"></pre>
        <script>
        window.addEventListener("load", () => {
          const img = document.getElementById("photo");
          document.getElementById("result").textContent = JSON.stringify({
            complete: img.complete, src: img.currentSrc, natural: img.naturalWidth, ratio: window.devicePixelRatio,
            shown: img.getBoundingClientRect().width });
        });
        </script></body></html>
        """.write(to: page, atomically: true, encoding: .utf8)
        for (factor, decoded) in [(1, 144), (2, 288), (3, 576)] {
            let run = try HeadlessChromium.run(["--force-device-scale-factor=\(factor)", "--enable-logging=stderr", "--v=0",
                                                "--virtual-time-budget=10000", "--dump-dom", page.absoluteString],
                                               timeoutSeconds: 30)
            #expect(run.exitCode == 0 && !run.timedOut, "factor \(factor): exit \(run.exitCode)")
            guard let start = run.stdout.range(of: "<pre id=\"result\">"),
                  let end = run.stdout.range(of: "</pre>", range: start.upperBound..<run.stdout.endIndex),
                  let json = try JSONSerialization.jsonObject(with: Data(run.stdout[start.upperBound..<end.lowerBound]
                      .replacingOccurrences(of: "&amp;", with: "&").utf8)) as? [String: Any]
            else {
                Issue.record("factor \(factor): no result in the DOM:\n\(run.stdout)")
                continue
            }
            #expect(json["complete"] as? Bool == true, "factor \(factor)")
            #expect(json["ratio"] as? Double == Double(factor), "factor \(factor)")
            #expect(json["src"] as? String == "\(base)&dpr=\(factor)", "factor \(factor)")
            #expect((json["natural"] as? Double).map { Int(($0 * Double(factor)).rounded()) } == decoded, "factor \(factor): \(json)")
            #expect(json["shown"] as? Double == 144, "factor \(factor)")
        }
        #expect(world.origin.accessLog(prefix: "/large/hubble-1000.jpg", count: 1).count == 1)
    }
}
