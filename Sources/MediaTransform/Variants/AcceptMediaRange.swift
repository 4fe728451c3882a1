/// One element of an `Accept` field value (RFC 9110 §12.5.1): a media range and its weight.
///
/// Grammar read (RFC 9110 §12.5.1, §12.4.2, §5.6): `#( type "/" subtype *( OWS ";" OWS [ name "=" ( token
/// / quoted-string ) ] ) )`, names and values tokens, `q` (any case) the first weight parameter, its value
/// a qvalue (`0`, `0.5`, `1`, `1.000`; at most three decimals). Elements that do not match the grammar
/// (a missing subtype, a malformed qvalue, an unterminated quoted string) are ignored, as if absent.
struct AcceptMediaRange: Sendable, Hashable {
    /// Lower-cased type (`image`, `*`).
    var type: String
    /// Lower-cased subtype (`webp`, `*`).
    var subtype: String
    /// Weight in thousandths, 0...1000 (1000 when no `q` is given).
    var weight: Int

    /// The well-formed elements of `value`, in order. Linear in the length of `value`.
    static func parse(_ value: String) -> [AcceptMediaRange] {
        let bytes = Array(value.utf8)
        var ranges: [AcceptMediaRange] = []
        var start = 0
        var index = 0
        var inQuote = false
        while index <= bytes.count {
            if index == bytes.count || (!inQuote && bytes[index] == UInt8(ascii: ",")) {
                if let range = element(bytes[start..<index]) { ranges.append(range) }
                start = index + 1
            } else if bytes[index] == UInt8(ascii: "\"") {
                inQuote.toggle()
            } else if inQuote && bytes[index] == UInt8(ascii: "\\") {
                index += 1  // quoted-pair: the next byte is literal
            }
            index += 1
        }
        return ranges
    }

    /// Parses one list element; `nil` when empty or malformed.
    static func element(_ bytes: ArraySlice<UInt8>) -> AcceptMediaRange? {
        var scanner = HeaderScanner(bytes)
        scanner.skipWhitespace()
        guard let type = scanner.token(), scanner.take(UInt8(ascii: "/")), let subtype = scanner.token() else {
            return nil
        }
        var weight: Int?
        while true {
            scanner.skipWhitespace()
            if scanner.atEnd { break }
            guard scanner.take(UInt8(ascii: ";")) else { return nil }
            scanner.skipWhitespace()
            if scanner.atEnd || scanner.peek == UInt8(ascii: ";") { continue }
            guard let name = scanner.token(), scanner.take(UInt8(ascii: "=")) else { return nil }
            if let token = scanner.token() {
                if weight == nil && name.lowercased() == "q" {
                    guard let q = qvalue(token) else { return nil }
                    weight = q
                }
            } else {
                // A quoted string (never a qvalue).
                guard scanner.quotedString(), !(weight == nil && name.lowercased() == "q") else { return nil }
            }
        }
        return AcceptMediaRange(type: type.lowercased(), subtype: subtype.lowercased(), weight: weight ?? 1000)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qvalue(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        if bytes.count == 1 { return first == UInt8(ascii: "1") ? 1000 : 0 }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var thousandths = 0
        var scale = 100
        for digit in bytes[2...] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        if first == UInt8(ascii: "1") { return thousandths == 0 ? 1000 : nil }
        return thousandths
    }
}
