import Foundation

/// The page BrowserSignedURLTests loads in Chromium, and the JSON it leaves in `<pre id="result">`.
///
/// It shows each subject's receipt through `<img crossorigin="anonymous" src="SIGNED-URL">`, draws each decoded
/// image onto a canvas and digests its pixels (`getImageData` works only when the answer passed CORS: a
/// tainted canvas throws), and `fetch()`es one attachment with `Authorization: Bearer` (a header that is not
/// CORS-safelisted, so Chromium sends a preflight first).
enum BrowserTestPage {
    /// One image as the page decoded it, or the error it met.
    struct Image: Decodable, Equatable {
        var width: Int?
        var height: Int?
        /// SHA-256 (hex) of the RGBA bytes `getImageData` returned.
        var pixelsSHA256: String?
        var error: String?
    }

    /// The `fetch()`: its status, body length and digest, and two response fields read by the script.
    struct Fetched: Decodable, Equatable {
        var status: Int?
        var bytes: Int?
        var bodySHA256: String?
        var contentType: String?
        /// Readable only because mediactl lists it in `Access-Control-Expose-Headers`.
        var cacheStatus: String?
        var error: String?
    }

    struct Result: Decodable, Equatable {
        /// By subject.
        var receipts: [String: Image]
        var attachment: Fetched
    }

    /// The page: one `<img>` per `(subject, url)` of `receipts` (absolute URLs), then the script that fetches
    /// `attachmentURL` with `Authorization: Bearer <token>` and writes ``Result`` as JSON.
    static func html(receipts: [(subject: String, url: String)], attachmentURL: String, token: String) -> String {
        let figures = receipts.map { receipt in
            """
            <figure><img data-subject="\(receipt.subject)" crossorigin="anonymous" src="\(escaped(receipt.url))" \
            alt="receipt of \(receipt.subject)"><figcaption>\(receipt.subject)</figcaption></figure>
            """
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>mediactl signed receipts</title>
            <style>
            body { font: 14px sans-serif; margin: 16px; }
            figure { display: inline-block; margin: 8px; padding: 4px; border: 1px solid #999; }
            pre { white-space: pre-wrap; word-break: break-all; font-size: 11px; }
            </style></head><body>
            <h1>Two subjects, one signed path</h1>
            \(figures)
            <pre id="result">pending</pre>
            <script>
            const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
            async function image(element) {
              try { await element.decode(); } catch (error) { return { error: String(error) }; }
              const canvas = document.createElement("canvas");
              canvas.width = element.naturalWidth;
              canvas.height = element.naturalHeight;
              const context = canvas.getContext("2d");
              context.drawImage(element, 0, 0);
              const size = { width: element.naturalWidth, height: element.naturalHeight };
              try {
                const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
                return { ...size, pixelsSHA256: hex(await crypto.subtle.digest("SHA-256", pixels)) };
              } catch (error) { return { ...size, error: String(error) }; }
            }
            async function attachment() {
              try {
                const response = await fetch(\(jsString(attachmentURL)), { headers: { Authorization: \(jsString("Bearer " + token)) } });
                const body = await response.arrayBuffer();
                return { status: response.status, bytes: body.byteLength, bodySHA256: hex(await crypto.subtle.digest("SHA-256", body)),
                         contentType: response.headers.get("Content-Type"), cacheStatus: response.headers.get("Cache-Status") };
              } catch (error) { return { error: String(error) }; }
            }
            async function main() {
              const elements = Array.from(document.querySelectorAll("img[data-subject]"));
              const [images, fetched] = await Promise.all([Promise.all(elements.map(image)), attachment()]);
              const receipts = {};
              elements.forEach((element, index) => { receipts[element.dataset.subject] = images[index]; });
              document.getElementById("result").textContent = JSON.stringify({ receipts, attachment: fetched });
            }
            main();
            </script>
            </body></html>

            """
    }

    /// The ``Result`` in a DOM Chromium dumped, or `nil` while the page still says `pending` (or has no result).
    static func result(inDOM dom: String) throws -> Result? {
        guard let open = dom.range(of: "<pre id=\"result\">"),
              let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex) else { return nil }
        let text = unescaped(String(dom[open.upperBound..<close.lowerBound]))
        guard text != "pending" else { return nil }
        return try JSONDecoder().decode(Result.self, from: Data(text.utf8))
    }

    /// `text` with the five characters HTML escapes in text and attribute values replaced by their references.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// The text of serialized HTML text content (Chromium escapes `&`, `<`, `>` and no-break spaces).
    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&nbsp;", with: "\u{A0}")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `text` as a JavaScript string literal (JSON's quoting, which JavaScript accepts; `<` escaped for `</script>`).
    static func jsString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast()).replacingOccurrences(of: "<", with: "\\u003c")
    }
}
