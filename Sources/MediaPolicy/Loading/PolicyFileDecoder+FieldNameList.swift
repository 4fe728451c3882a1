import MediaCore

extension PolicyFileDecoder {
    /// An array of at most `maximum` distinct field names (RFC 9110 tokens, compared ignoring case), in policy order:
    /// the shape of `targetedCacheControl` and `forwardRequestHeaders`. Each name is checked in turn: a string, a
    /// token, then `refusal` (the problem text for a name the key does not take, or `nil`), then not listed twice.
    /// The first problem is reported with `allowed` and ends the list (`nil`).
    mutating func fieldNameList(_ value: JSONValue, at path: String, maximum: Int, allowed: String,
                                refusal: (_ name: String, _ element: JSONValue) -> String?) -> [String]? {
        distinctStrings(value, at: path, maximum: maximum, allowed: allowed,
                        same: { $0.lowercased() == $1.lowercased() }) { name, element in
            PolicyText.isFieldName(name) ? refusal(name, element) : "\(element.rendered) is not a field name"
        }
    }

    /// An array of at most `maximum` distinct strings, in policy order: the shape of the name lists
    /// (``fieldNameList(_:at:maximum:allowed:refusal:)``, `ignoredQueryParameters`, `passQueryParameters`).
    /// Each entry is checked in turn: a string, then `problem` (the problem text for an entry the key does not
    /// take, or `nil`), then not listed twice (`same` says whether two entries are one). The first problem is
    /// reported with `allowed` and ends the list (`nil`).
    mutating func distinctStrings(_ value: JSONValue, at path: String, maximum: Int, allowed: String,
                                  same: (String, String) -> Bool = (==),
                                  problem: (_ text: String, _ element: JSONValue) -> String?) -> [String]? {
        guard case .array(let elements) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard elements.count <= maximum else {
            report(.invalidValue, path, value: value, problem: "\(elements.count) entries are more than \(maximum)",
                   allowed: allowed)
            return nil
        }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let text = string(element, at: itemPath, allowed: allowed) else { return nil }
            if let problem = problem(text, element) {
                report(.invalidValue, itemPath, value: element, problem: problem, allowed: allowed)
                return nil
            }
            guard !texts.contains(where: { same($0, text) }) else {
                report(.invalidValue, itemPath, value: element, problem: "\(element.rendered) is listed twice", allowed: allowed)
                return nil
            }
            texts.append(text)
        }
        return texts
    }
}
