import MediaCore
import Testing

@Suite struct HTTPFieldsTests {
    @Test func combinedValueAndCaseInsensitiveNames() {
        let fields = HTTPFields([("Accept", "a"), ("ACCEPT", " b "), ("Other", "x")])
        #expect(fields["accept"] == "a, b")
        #expect(fields["missing"] == nil)
        #expect(fields.values(for: "Accept") == ["a", "b"])
        #expect(fields.contains("other") == true)
    }

    @Test func listValuesRespectQuotes() {
        let fields = HTTPFields([("Vary", "a, \"b,c\" ,, d"), ("vary", "e")])
        #expect(fields.listValues(for: "vary") == ["a", "\"b,c\"", "d", "e"])
    }

    @Test func setReplacesInPlaceAndRemoves() {
        var fields = HTTPFields([("A", "1"), ("B", "2"), ("a", "3")])
        fields.set("A", "9")
        #expect(fields == HTTPFields([("A", "9"), ("B", "2")]))
        fields.set("b", nil)
        #expect(fields == HTTPFields([("A", "9")]))
        fields.set("C", "new")
        #expect(fields == HTTPFields([("A", "9"), ("C", "new")]))
    }

    @Test func unquoteAndSplit() {
        #expect(HTTPFieldList.unquote("\"a\\\"b\"") == "a\"b")
        #expect(HTTPFieldList.unquote("\"open") == nil)
        #expect(HTTPFieldList.unquote("\"a\"b\"") == nil)
        #expect(HTTPFieldList.split("x=\"a,b\", max-age=60") == ["x=\"a,b\"", "max-age=60"])
        #expect(HTTPFieldList.trimOWS(" \t v \t") == "v")
    }

    @Test func trimsValuesOnInsert() {
        var fields = HTTPFields([("A", "  é  ")])
        fields.append("B", "\tx\t")
        #expect(fields.values(for: "a") == ["é"])
        #expect(fields.values(for: "b") == ["x"])
    }
}
