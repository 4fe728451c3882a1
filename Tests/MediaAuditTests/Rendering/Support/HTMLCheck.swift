import Foundation
import MediaTestSupport

/// Runs python3's standard `html.parser` over a page with a strict checker: the doctype first,
/// `<html lang>`, `<meta charset="utf-8">`, a non-empty `<title>`, every non-void element closed in
/// order, no self-closing HTML element, no script, frame, object, embed, link, img, form, media or
/// `use`, no `src`/`href`-like or `on…` attribute, no `url(`/`@import` in styles, no comment, valid
/// UTF-8. Prints, on success, a JSON summary.
enum HTMLCheck {
    struct Summary: Decodable {
        /// The `<title>` text.
        let title: String
        /// Start tags by name.
        let counts: [String: Int]
        /// Every non-blank text node outside `<style>` and the page's `<title>`, in order, entities resolved.
        let texts: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = #"""
        import json, sys
        from html.parser import HTMLParser
        VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
        FORBIDDEN_TAGS = {"script", "iframe", "frame", "frameset", "object", "embed", "link", "img", "base", "form",
                          "audio", "video", "source", "picture", "image", "use", "foreignobject", "noscript"}
        FORBIDDEN_ATTRS = {"src", "href", "srcset", "xlink:href", "action", "formaction", "poster", "data",
                           "background", "style"}
        class Strict(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.stack, self.errors, self.texts, self.counts = [], [], [], {}
                self.doctype, self.seen, self.lang, self.charset, self.title, self.style = None, False, None, False, "", ""
                self.head_titles = 0
            def fail(self, message):
                self.errors.append("line %d col %d: %s" % (self.getpos() + (message,)))
            def handle_decl(self, decl):
                if self.seen: self.fail("declaration not first: " + decl)
                self.doctype, self.seen = decl, True
            def handle_starttag(self, tag, attrs):
                if not self.seen: self.fail("no doctype before <%s>" % tag)
                self.seen = True
                self.counts[tag] = self.counts.get(tag, 0) + 1
                if tag in FORBIDDEN_TAGS: self.fail("forbidden element <%s>" % tag)
                for name, value in attrs:
                    if name in FORBIDDEN_ATTRS or name.startswith("on"): self.fail("forbidden attribute %s on <%s>" % (name, tag))
                    if value is not None and ("url(" in value.lower() or "javascript:" in value.lower()):
                        self.fail("reference in attribute %s" % name)
                if tag == "html": self.lang = dict(attrs).get("lang")
                if tag == "meta" and (dict(attrs).get("charset") or "").lower() == "utf-8": self.charset = True
                if tag == "title" and self.stack == ["html", "head"]: self.head_titles += 1
                if tag not in VOID: self.stack.append(tag)
            def handle_startendtag(self, tag, attrs):
                self.fail("self-closing <%s/>" % tag)
                self.handle_starttag(tag, attrs)
                if tag not in VOID: self.stack.pop()
            def handle_endtag(self, tag):
                if tag in VOID: self.fail("end tag of void element </%s>" % tag)
                elif not self.stack or self.stack[-1] != tag: self.fail("</%s> closes %s" % (tag, self.stack[-1:]))
                else: self.stack.pop()
            def handle_data(self, data):
                if not self.seen:
                    if data.strip(): self.fail("text before the doctype")
                    return
                top = self.stack[-1] if self.stack else None
                if top == "title" and self.stack[:-1] == ["html", "head"]: self.title += data
                elif top == "style":
                    self.style += data
                    if "url(" in data.lower() or "@import" in data.lower(): self.fail("reference in <style>")
                elif data.strip(): self.texts.append(data)
            def handle_comment(self, data): self.fail("comment")
            def handle_pi(self, data): self.fail("processing instruction")
            def unknown_decl(self, data): self.fail("unknown declaration " + data)
        with open(sys.argv[1], encoding="utf-8", errors="strict") as f:
            page = f.read()
        checker = Strict()
        checker.feed(page)
        checker.close()
        if (checker.doctype or "").lower() != "doctype html": checker.fail("doctype is %r" % checker.doctype)
        if checker.stack: checker.fail("unclosed %s" % checker.stack)
        if not checker.lang: checker.fail("no <html lang>")
        if not checker.charset: checker.fail("no <meta charset=utf-8>")
        if not checker.title.strip(): checker.fail("no title")
        for tag in ("html", "head", "body"):
            if checker.counts.get(tag) != 1: checker.fail("%d <%s>" % (checker.counts.get(tag, 0), tag))
        if checker.head_titles != 1: checker.fail("%d <title> in <head>" % checker.head_titles)
        if checker.errors:
            sys.stderr.write("\n".join(checker.errors) + "\n")
            sys.exit(1)
        print(json.dumps({"title": checker.title, "counts": checker.counts, "texts": checker.texts}))
        """#

    /// Writes `page` to a temporary file and checks it.
    /// - Throws: ``Failure`` with the checker's stderr when it exits non-zero.
    static func check(_ page: String) throws -> Summary {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("audit-html-\(UUID().uuidString).html")
        try Data(page.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try check(file: file.path)
    }

    /// Checks the page at `path` (see the type's documentation).
    static func check(file path: String) throws -> Summary {
        let (status, out, err) = try run(["python3", "-c", script, path])
        guard status == 0 else { throw Failure(description: "html check exit \(status): \(err)") }
        return try JSONDecoder().decode(Summary.self, from: Data(out.utf8))
    }

    /// Runs `arguments` through `/usr/bin/env`, returning the exit status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        return (result.status, result.stdout, result.stderr)
    }
}
