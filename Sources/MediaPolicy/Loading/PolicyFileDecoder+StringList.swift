import MediaCore

extension PolicyFileDecoder {
    /// A non-empty JSON array of distinct strings, each one of `names` (or, when `wildcard` is given, that word
    /// alone): every problem is reported (`is not allowed` with the nearest name, `is listed twice`, `must be the only
    /// entry`), then `nil`.
    /// - Parameters:
    ///   - emptyProblem: the problem of an empty array (`an empty array accepts nothing`).
    ///   - wildcard: a word that may stand alone instead of names (`*/*`); `nil`: none.
    mutating func distinctNames(
        _ value: JSONValue, at path: String, names: [String], allowed: String, emptyProblem: String,
        wildcard: String? = nil
    ) -> [String]? {
        guard case .array(let elements) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard !elements.isEmpty else {
            report(.invalidValue, path, value: value, problem: emptyProblem, allowed: allowed)
            return nil
        }
        var out: [String] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let text = string(element, at: elementPath, allowed: allowed) else {
                valid = false
                continue
            }
            if let wildcard, text == wildcard {
                guard elements.count == 1 else {
                    report(.invalidValue, elementPath, value: element, problem: "\"\(wildcard)\" must be the only entry", allowed: allowed)
                    valid = false
                    continue
                }
            } else if !names.contains(text) {
                let hint = KeySuggestion.hint(for: text, in: names)
                report(.invalidValue, elementPath, value: element, problem: "\(element.rendered) is not allowed\(hint)", allowed: allowed)
                valid = false
                continue
            }
            if out.contains(text) {
                report(.invalidValue, elementPath, value: element, problem: "\(element.rendered) is listed twice", allowed: allowed)
                valid = false
                continue
            }
            out.append(text)
        }
        return valid ? out : nil
    }
}
