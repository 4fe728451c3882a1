/// One `--header 'Name: value'` of `mediactl fetch` (RFC 9110 §5.1 field name, §5.5 value).
public struct RequestHeader: Sendable, Hashable, CustomStringConvertible {
    /// The field name, case preserved.
    public var name: String
    /// The field value, leading and trailing spaces and tabs removed; may be empty.
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `Name: value`.
    public var description: String { "\(name): \(value)" }

    /// Parses `Name: value` (split at the first `:`).
    /// - Returns: the header, or the reason: `"expected 'Name: value'"`,
    ///   `"'Fo o' is not a valid field name"`, `"value contains a control character"`.
    static func parse(_ text: String) -> Result<RequestHeader, ReasonError> {
        guard let colon = text.firstIndex(of: ":") else { return .failure("expected 'Name: value'") }
        let name = String(text[..<colon])
        if name.isEmpty { return .failure("expected 'Name: value'") }
        guard name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
            return .failure(ReasonError("'\(name)' is not a valid field name"))
        }
        let raw = text.unicodeScalars[text.unicodeScalars.index(after: colon)...]
        let isOWS: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        let trimmed = raw.drop(while: isOWS).reversed().drop(while: isOWS).reversed()
        let value = String(String.UnicodeScalarView(trimmed))
        if value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            return .failure("value contains a control character")
        }
        return .success(RequestHeader(name: name, value: value))
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": return true
        default: return false
        }
    }
}

/// The `PATH` of `mediactl fetch` and `mediactl sign`: a request target in origin form.
enum RequestTarget {
    /// `text` when it starts with `/` and holds no space or control character.
    /// - Returns: the target, or the reason: `"must start with '/'"`, `"contains a space or control character"`.
    static func parse(_ text: String) -> Result<String, ReasonError> {
        guard text.hasPrefix("/") else { return .failure("must start with '/'") }
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return .failure("contains a space or control character")
        }
        return .success(text)
    }
}
