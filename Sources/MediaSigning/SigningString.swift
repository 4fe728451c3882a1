/// The string a signed URL's `sig` authenticates (docs/signed-urls.md, "The algorithm"): six lines joined
/// with `\n`, no trailing newline:
///
/// ```
/// mediactl-url-v1
/// KID
/// EXP
/// SUB
/// PATH    the request path exactly as sent (percent-encoded), without the query
/// QUERY   every other parameter as sent, sorted by name, then value, then as written; joined with &
/// ```
///
/// A parameter is the text between `&`s; its name is what precedes its first `=` (all of it when there is
/// none), its value what follows. Sorting compares bytes.
public enum SigningString {
    /// The signing string's UTF-8 bytes.
    /// - Parameters:
    ///   - keyID: `kid`.
    ///   - expires: `exp` as sent (decimal digits).
    ///   - subject: `sub`.
    ///   - path: the path as sent, e.g. `/receipts/r-7731.png`.
    ///   - parameters: the query's other parameters as sent, in any order (e.g. `["w=144", "fmt=webp"]`).
    public static func bytes(keyID: String, expires: String, subject: String, path: String,
                             parameters: [Substring]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32 + keyID.utf8.count + expires.utf8.count + subject.utf8.count + path.utf8.count
                            + parameters.reduce(0) { $0 + $1.utf8.count + 1 })
        out.append(contentsOf: SignedURLParameters.version.utf8)
        out.append(0x0A)
        out.append(contentsOf: keyID.utf8)
        out.append(0x0A)
        out.append(contentsOf: expires.utf8)
        out.append(0x0A)
        out.append(contentsOf: subject.utf8)
        out.append(0x0A)
        out.append(contentsOf: path.utf8)
        out.append(0x0A)
        for (index, parameter) in sorted(parameters).enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            out.append(contentsOf: parameter.utf8)
        }
        return out
    }

    /// `parameters` in signing order: by name, then value, then the whole text, comparing bytes.
    public static func sorted(_ parameters: [Substring]) -> [Substring] {
        guard parameters.count > 1 else { return parameters }
        return parameters.sorted { lhs, rhs in
            let (leftName, leftValue) = split(lhs), (rightName, rightValue) = split(rhs)
            if !leftName.utf8.elementsEqual(rightName.utf8) { return leftName.utf8.lexicographicallyPrecedes(rightName.utf8) }
            if !leftValue.utf8.elementsEqual(rightValue.utf8) { return leftValue.utf8.lexicographicallyPrecedes(rightValue.utf8) }
            return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        }
    }

    /// A parameter's name (before the first `=`) and value (after it; empty without `=`).
    public static func split(_ parameter: Substring) -> (name: Substring, value: Substring) {
        guard let equals = parameter.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            return (parameter, parameter[parameter.endIndex...])
        }
        return (parameter[..<equals], parameter[parameter.utf8.index(after: equals)...])
    }
}
