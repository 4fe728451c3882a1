import Foundation
import MediaTestSupport
import Testing

/// The derived-images issue's browser check ("Done when"): one page in a real headless Chromium at device scale factors
/// 1, 2 and 3, against the built binary and a real nginx origin, with the repository's default policies plus `jxl` in
/// the public tier's formats and `animation` on it. The page has a `srcset` (1x, 2x, 3x), an `fmt=auto` photo and an
/// animated GIF with `fmt=auto`. Every image loads at its expected decoded width; Chromium, whose `Accept` lists
/// `image/jxl`, receives JPEG XL for the 576-px photo (where JPEG XL ranks first, FormatRanking); and the animation it receives has more than one frame (counted by
/// Chromium's own decoder, WebCodecs `ImageDecoder`, over the same variant).
@Suite(.enabled(if: NginxOrigin.isAvailable), .serialized) struct DerivedImagesBrowserTests {
    static var madeDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/made").path
    }

    static var originLocations: String {
        """
        location /large/ { add_header Cache-Control "public, max-age=31536000"; }
        location = /large/pan.gif { alias \(madeDirectory)/hubble-pan-6f.gif; add_header Cache-Control "public, max-age=31536000"; }
        """
    }

    static func policy(originBase: String) throws -> String {
        let text = try ServeEnvironment.repositoryDefaultPolicy(originBase: originBase)
        guard let formats = text.range(of: #""formats": ["jpeg", "webp", "avif", "png"]"#) else {
            throw HeadlessChromium.Failure("Policies/default.json changed shape")
        }
        // The first `formats` and the only `tagHeader` are the public tier's.
        var edited = text.replacingCharacters(in: formats, with: #""formats": ["jpeg", "webp", "avif", "png", "jxl"]"#)
        guard let tag = edited.range(of: #""tagHeader": "Surrogate-Key","#) else {
            throw HeadlessChromium.Failure("Policies/default.json changed shape")
        }
        edited.replaceSubrange(tag, with: #""tagHeader": "Surrogate-Key", "animation": { "maxFrames": 120, "maxPixels": 50000000 },"#)
        return edited
    }

    @Test(.enabled(if: HeadlessChromium.isAvailable, "chromium is not installed: scripts/test installs it"))
    func everyImageLoadsAtItsWidthInJPEGXLAndAnimated() throws {
        let world = try ServeEnvironment(originServerConfig: Self.originLocations, policy: Self.policy(originBase:))
        defer { world.tearDown() }
        try world.start()
        let host = "http://127.0.0.1:\(world.port)"
        let ladder = "\(host)/large/hubble-1000.jpg?w=144"
        let animation = "\(host)/large/pan.gif?w=144&fmt=auto"
        // A client that accepts none of WebP, AVIF and JPEG XL gets the animation as GIF.
        let gif = try world.get("/large/pan.gif?w=144&fmt=auto", headers: [("Accept", "image/png,image/*;q=0.8")])
        #expect(gif.header("Content-Type") == "image/gif")
        #expect(gif.header("Mediactl-Image-Width") == "144" && gif.header("Mediactl-Image-Height") == "108")
        let page = world.root.appendingPathComponent("derived.html")
        try """
        <!doctype html><html><body>
        <img id="ladder" width="144" height="126" src="\(ladder)&dpr=1"
             srcset="\(ladder)&dpr=1 1x, \(ladder)&dpr=2 2x, \(ladder)&dpr=3 3x">
        <img id="auto" src="\(host)/large/hubble-1000.jpg?w=576&fmt=auto">
        <img id="animation" src="\(animation)">
        <pre id="result"></pre>
        <script>
        window.addEventListener("load", async () => {
          const out = {};
          for (const id of ["ladder", "auto", "animation"]) {
            const img = document.getElementById(id);
            out[id] = { complete: img.complete, natural: img.naturalWidth };
          }
          try {
            const answer = await fetch("\(animation)", { headers: { Accept: "image/jxl,image/avif,image/webp,*/*" } });
            const type = answer.headers.get("Content-Type");
            const decoder = new ImageDecoder({ data: await answer.arrayBuffer(), type });
            await decoder.tracks.ready;
            const second = await decoder.decode({ frameIndex: 1 });
            out.frames = { type, count: decoder.tracks.selectedTrack.frameCount,
                           animated: decoder.tracks.selectedTrack.animated, second: second.image.displayWidth };
          } catch (error) {
            out.frames = { error: String(error) };
          }
          document.getElementById("result").textContent = JSON.stringify(out);
        });
        </script></body></html>
        """.write(to: page, atomically: true, encoding: .utf8)
        for (factor, decoded) in [(1, 144), (2, 288), (3, 576)] {
            // --disable-web-security: the file:// page reads the variant's bytes with fetch() (no CORS on the tier).
            // --dump-dom may come before the page's asynchronous decode has written its result (virtual time runs out
            // while the decoder works on another thread): the page is then loaded again, at most three times.
            var json: [String: Any] = [:]
            for _ in 0..<3 where json["frames"] == nil {
                let run = try HeadlessChromium.run(["--force-device-scale-factor=\(factor)", "--disable-web-security",
                                                    "--enable-logging=stderr", "--v=0", "--virtual-time-budget=15000",
                                                    "--dump-dom", page.absoluteString], timeoutSeconds: 45)
                #expect(run.exitCode == 0 && !run.timedOut, "factor \(factor): exit \(run.exitCode)")
                if let start = run.stdout.range(of: "<pre id=\"result\">"),
                   let end = run.stdout.range(of: "</pre>", range: start.upperBound..<run.stdout.endIndex),
                   let parsed = try? JSONSerialization.jsonObject(with: Data(run.stdout[start.upperBound..<end.lowerBound]
                       .replacingOccurrences(of: "&amp;", with: "&").utf8)) as? [String: Any] {
                    json = parsed
                }
            }
            guard json["frames"] != nil else {
                Issue.record("factor \(factor): no result in the DOM after three loads")
                continue
            }
            func image(_ id: String) -> (Bool?, Int?) {
                let entry = json[id] as? [String: Any]
                // naturalWidth is density-corrected for a srcset candidate: × the factor gives the decoded width.
                let natural = (entry?["natural"] as? Double).map { id == "ladder" ? $0 * Double(factor) : $0 }
                return (entry?["complete"] as? Bool, natural.map { Int($0.rounded()) })
            }
            #expect(image("ladder") == (true, decoded), "factor \(factor): \(json)")
            #expect(image("auto") == (true, 576), "factor \(factor): \(json)")
            #expect(image("animation") == (true, 144), "factor \(factor): \(json)")
            let frames = json["frames"] as? [String: Any]
            #expect(frames?["type"] as? String == "image/webp", "factor \(factor): \(json)")
            #expect(frames?["count"] as? Double == 6, "factor \(factor): \(json)")
            #expect(frames?["animated"] as? Bool == true, "factor \(factor): \(json)")
            #expect(frames?["second"] as? Double == 144, "factor \(factor): \(json)")
        }
        #expect(world.stop() == 0)
        let transforms = Set(world.auditRecords.filter { $0.event == "store" && $0.transform != nil }.compactMap(\.transform))
        // Chromium received JPEG XL for the fmt=auto photo, and animated WebP for the GIF.
        #expect(transforms == ["w=144,fit=inside,fmt=jpeg,q=80", "w=288,fit=inside,fmt=jpeg,q=80",
                               "w=576,fit=inside,fmt=jpeg,q=80", "w=576,fit=inside,fmt=jxl,q=80",
                               "w=144,fit=inside,fmt=webp,q=85,animated", "w=144,fit=inside,fmt=gif,animated"])
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.clean == true)
    }
}
