@testable import MediaCore
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    func failure(_ text: String) -> JSONParser.Failure? {
        failure(Array(text.utf8))
    }

    func failure(_ bytes: [UInt8]) -> JSONParser.Failure? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesValuesKeepingOrderAndLexemes() throws {
        let value = try parse(#" { "b": [1, -0.5e+3, true, false, null], "a": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "b": {} } "#)
        #expect(value == .object([
            .init(key: "b", value: .array([.number("1"), .number("-0.5e+3"), .bool(true), .bool(false), .null])),
            .init(key: "a", value: .string("x\"\\/\u{8}\u{c}\n\r\té😀")),
            .init(key: "b", value: .object([])),
        ]))
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    @Test func reportsLineAndColumn() {
        #expect(failure("{\n  \"a\": 1,\n}") == .init(line: 3, column: 1, message: "unexpected character '}', expected a member name in double quotes"))
        #expect(failure("[1, 2,]") == .init(line: 1, column: 7, message: "unexpected character ']', expected a value"))
        #expect(failure("{\"a\" 1}") == .init(line: 1, column: 6, message: "unexpected character '1', expected ':' after the member name"))
        #expect(failure("{\"é\": 1 2}") == .init(line: 1, column: 9, message: "unexpected character '2', expected ',' or '}'"))
        #expect(failure("[1 2]") == .init(line: 1, column: 4, message: "unexpected character '2', expected ',' or ']'"))
        #expect(failure("") == .init(line: 1, column: 1, message: "unexpected end of file, expected a value"))
        #expect(failure("{} x") == .init(line: 1, column: 4, message: "unexpected content after the JSON value"))
        #expect(failure("// c\n{}") == .init(line: 1, column: 1, message: "unexpected character '/', expected a value"))
    }

    @Test func rejectsBadNumbersStringsAndLiterals() {
        #expect(failure("01") == .init(line: 1, column: 2, message: "leading zeros are not allowed in numbers"))
        #expect(failure("1.") == .init(line: 1, column: 3, message: "unexpected end of file, expected a digit after '.'"))
        #expect(failure("1e") == .init(line: 1, column: 3, message: "unexpected end of file, expected a digit in the exponent"))
        #expect(failure("-x") == .init(line: 1, column: 2, message: "unexpected character 'x', expected a digit"))
        #expect(failure("tru") == .init(line: 1, column: 4, message: "unexpected end of file, expected 'true'"))
        #expect(failure("\"abc") == .init(line: 1, column: 5, message: "unterminated string"))
        #expect(failure("\"a\tb\"") == .init(line: 1, column: 3, message: "control character 0x09 in a string; escape it"))
        #expect(failure(#""\x""#) == .init(line: 1, column: 3, message: "invalid escape \\x"))
        #expect(failure(#""\u12""#) == .init(line: 1, column: 6, message: "unexpected character '\"', expected 4 hex digits after \\u"))
        #expect(failure(#""\ud800""#) == .init(line: 1, column: 8, message: "lone high surrogate \\ud800"))
        #expect(failure(#""\udc00""#) == .init(line: 1, column: 8, message: "lone low surrogate \\udc00"))
        #expect(failure(#""\ud800\u0041""#) == .init(line: 1, column: 14, message: "invalid low surrogate \\u41"))
    }

    @Test func rejectsInvalidUTF8WithItsPosition() {
        #expect(failure(Array("{\n \"a\": \"".utf8) + [0xFF] + Array("\"}".utf8))
            == .init(line: 2, column: 8, message: "invalid UTF-8 byte 0xFF"))
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(failure(deep) == .init(line: 1, column: 65, message: "nesting deeper than 64 levels"))
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(failure(ok) == nil)
    }

    @Test func renderingForMessages() {
        #expect(JSONValue.string("a\"b\u{1}").rendered == #""a\"b\u0001""#)
        #expect(JSONValue.string(String(repeating: "x", count: 90)).rendered == "\"" + String(repeating: "x", count: 80) + "…\"")
        #expect(JSONValue.number("1e3").typeName == "a number")
        #expect(JSONValue.number("-12").typeName == "an integer")
    }
}
