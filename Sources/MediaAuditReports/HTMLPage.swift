import MediaCore

/// The parts both audit pages (``AuditHTMLReport``, ``AuditFleetHTMLReport``) share: the document head with
/// its viewport and style, tables that scroll inside their own box, and byte cells.
///
/// The page fits any viewport from a phone's 390 CSS pixels up without scrolling sideways: the viewport
/// is the device's width; every table sits in a `<div class="table-wrap">` that scrolls horizontally by
/// itself when the table is wider than the screen (the violations table becomes cards instead); headings,
/// `<code>` (hashes, keys), evidence and failure messages break anywhere rather than overflow; the chart's
/// SVG shrinks to its container.
enum HTMLPage {
    /// The viewport line of the head.
    static let viewport = "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"

    /// The inline style sheet, one rule a line (the narrow-screen rules in one `@media` block), ending with
    /// a blank line. Below 40em (640 CSS pixels) a `<table class="cards">` shows each row as a card of
    /// `label: value` lines (the labels from its cells' `data-label`, empty cells hidden).
    static let style = """
        body { font-family: system-ui, sans-serif; margin: 1em; color: #222; line-height: 1.4; }
        h1, h2, h3, h4, li { overflow-wrap: anywhere; }
        .table-wrap { max-width: 100%; overflow-x: auto; margin: 0.5em 0 1.5em; }
        table { border-collapse: collapse; font-size: 0.9375em; }
        th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.t { overflow-wrap: anywhere; }
        th.suite { background: #f3f3f3; }
        td.failure { overflow-wrap: anywhere; padding-left: 1.5em; }
        .bad { color: #b00020; font-weight: bold; }
        .ok { color: #1b5e20; }
        code { overflow-wrap: anywhere; word-break: break-all; }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font-size: 12px; }
        @media (max-width: 40em) {
        table.cards, .cards tbody, .cards tr, .cards th, .cards td { display: block; }
        .cards thead { display: none; }
        .cards tr { border: 1px solid #ccc; margin-bottom: 0.5em; }
        .cards th, .cards td { border: 0; text-align: left; overflow-wrap: anywhere; }
        .cards td:empty { display: none; }
        .cards td::before { content: attr(data-label) ": "; font-weight: bold; }
        }

        """

    /// `<!DOCTYPE html>` up to and including `<body>`: charset, viewport, `<title>` and the style.
    static func head(title: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\(viewport)\n"
            + "<title>\(XMLEscaping.text(title))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n"
    }

    /// The opening of a table in its scrolling box: `<div class="table-wrap">\n<table>\n`.
    static let tableStart = "<div class=\"table-wrap\">\n<table>\n"
    /// As ``tableStart`` for a table shown as cards on a narrow screen: `<table class="cards">`.
    static let cardsTableStart = "<div class=\"table-wrap\">\n<table class=\"cards\">\n"
    /// The end of ``tableStart``: `</table>\n</div>\n`.
    static let tableEnd = "</table>\n</div>\n"

    /// A `<thead>` line of `names`.
    static func header(_ names: [String]) -> String {
        "<thead><tr>" + names.map { "<th>\(XMLEscaping.text($0))</th>" }.joined() + "</tr></thead>\n"
    }

    /// A byte count's cell: `<td class="n" title="40618 bytes">39.7 KiB</td>`; with a `label` (a cards
    /// table), `data-label="LABEL"` after the title.
    static func bytesCell(_ bytes: Int, label: String? = nil) -> String {
        let size = ByteSize(bytes)
        let data = label.map { " data-label=\"\(XMLEscaping.attribute($0))\"" } ?? ""
        return "<td class=\"n\" title=\"\(size.title)\"\(data)>\(size.text)</td>"
    }
}
