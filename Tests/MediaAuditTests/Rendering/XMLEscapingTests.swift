import Foundation
import MediaAudit
import MediaAuditReports
import MediaTestSupport
import Testing

@Suite struct XMLEscapingTests {
    static let markup = "a<b>&c\"d'e]]>\r\t\n"

    @Test func textEscapesMarkupAndCarriageReturnButKeepsQuotesAndWhitespace() {
        #expect(XMLEscaping.text(Self.markup) == "a&lt;b&gt;&amp;c\"d'e]]&gt;&#13;\t\n")
    }

    @Test func attributeAlsoEscapesQuotesAndWhitespace() {
        #expect(XMLEscaping.attribute(Self.markup) == "a&lt;b&gt;&amp;c&quot;d&#39;e]]&gt;&#13;&#9;&#10;")
    }

    /// XML 1.0 §2.2 forbids C0 controls (but tab, LF, CR), U+FFFE and U+FFFF; DEL, C1 controls and the
    /// other noncharacters are replaced as well (HTML5 parse errors).
    @Test func forbiddenCharactersBecomeTheReplacementCharacter() {
        let values: [UInt32] = [
            0x0, 0x1, 0x8, 0xB, 0xC, 0x1F, 0x7F, 0x80, 0x9F, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF,
        ]
        var scalars = String.UnicodeScalarView()
        for value in values { scalars.append(Unicode.Scalar(value)!) }
        let forbidden = String(scalars)
        let replaced = String(repeating: "\u{FFFD}", count: 15)
        #expect(XMLEscaping.text(forbidden) == replaced)
        #expect(XMLEscaping.attribute("x" + forbidden + "y") == "x" + replaced + "y")
    }

    @Test func otherCharactersAreKeptAsTheyAre() {
        let kept = "plain é 漢 😀 \u{A0} \u{FDCF} \u{FDF0} \u{FFFD} \u{10FFFD} \u{D7FF} \u{E000}"
        #expect(XMLEscaping.text(kept) == kept)
        #expect(XMLEscaping.attribute(kept) == kept)
    }

    /// A real XML parser reads back exactly the original text, forbidden characters replaced.
    @Test func anXMLParserReadsBackTheOriginal() throws {
        let original = Self.markup + " \u{1}é😀 &amp; <![CDATA[x]]>"
        let expected = original.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
        let document = "<r a=\"\(XMLEscaping.attribute(original))\" b='\(XMLEscaping.attribute(original))'>"
            + XMLEscaping.text(original) + "</r>"
        let root = try XMLNode.parse(document)
        #expect(root.attributes["a"] == expected)
        #expect(root.attributes["b"] == expected)
        #expect(root.text == expected)
    }
}
