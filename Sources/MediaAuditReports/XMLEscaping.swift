/// Escaping of text for XML 1.0 and HTML5 documents (the JUnit and HTML audit reports).
///
/// Both functions first replace every character a report must not carry with U+FFFD (`�`):
/// the characters XML 1.0 forbids (XML 1.0 §2.2 `Char`: C0 controls other than tab, line feed and
/// carriage return, U+FFFE, U+FFFF), and also DEL, the C1 controls (U+0080–U+009F) and the other
/// noncharacters (U+FDD0–U+FDEF, U+xFFFE/U+xFFFF of every plane), which HTML5 reports as parse errors.
/// So one escaped string is valid in both formats.
public enum XMLEscaping {
    /// `text` for character data (element content): `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;` (so `]]>`
    /// never appears), carriage return → `&#13;` (a literal one would be read as a line feed), forbidden
    /// characters → U+FFFD. Quotes are kept.
    public static func text(_ text: String) -> String {
        escape(text, attribute: false)
    }

    /// `text` for a double- or single-quoted attribute value: as ``text(_:)``, plus `"` → `&quot;`,
    /// `'` → `&#39;`, and tab, line feed, carriage return → `&#9;`, `&#10;`, `&#13;` (an XML parser turns
    /// literal ones into spaces, XML 1.0 §3.3.3).
    public static func attribute(_ text: String) -> String {
        escape(text, attribute: true)
    }

    /// Whether `scalar` may appear in a report unchanged (see the type's documentation).
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x00..<0x20, 0x7F...0x9F, 0xFDD0...0xFDEF: return false
        default: return value & 0xFFFE != 0xFFFE
        }
    }

    private static func escape(_ text: String, attribute: Bool) -> String {
        // The common case (nothing to escape) costs one scan and no copy.
        guard text.unicodeScalars.contains(where: { needsWork($0, attribute: attribute) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\r": out.append(contentsOf: "&#13;".unicodeScalars)
            case "\"" where attribute: out.append(contentsOf: "&quot;".unicodeScalars)
            case "'" where attribute: out.append(contentsOf: "&#39;".unicodeScalars)
            case "\t" where attribute: out.append(contentsOf: "&#9;".unicodeScalars)
            case "\n" where attribute: out.append(contentsOf: "&#10;".unicodeScalars)
            default: out.append(isAllowed(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return String(out)
    }

    private static func needsWork(_ scalar: Unicode.Scalar, attribute: Bool) -> Bool {
        switch scalar {
        case "&", "<", ">", "\r": return true
        case "\"", "'", "\t", "\n": return attribute
        default: return !isAllowed(scalar)
        }
    }
}
