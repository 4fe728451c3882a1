extension PolicyFileDecoder {
    /// An array of at most `maximum` distinct field names (RFC 9110 tokens, compared ignoring case), in policy order:
    /// the shape of `targetedCacheControl` and `forwardRequestHeaders`. Each name is checked in turn: a string, a
    /// token, then `refusal` (the problem text for a name the key does not take, or `nil`), then not listed twice.
    /// The first problem is reported with `allowed` and ends the list (`nil`).
    mutating func fieldNameList(_ value: PolicyJSON, at path: String, maximum: Int, allowed: String,
                                refusal: (_ name: String, _ element: PolicyJSON) -> String?) -> [String]? {
        guard case .array(let elements) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard elements.count <= maximum else {
            report(.invalidValue, path, value: value, problem: "\(elements.count) entries are more than \(maximum)",
                   allowed: allowed)
            return nil
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let name = string(element, at: itemPath, allowed: allowed) else { return nil }
            guard PolicyText.isFieldName(name) else {
                report(.invalidValue, itemPath, value: element, problem: "\(element.rendered) is not a field name", allowed: allowed)
                return nil
            }
            if let problem = refusal(name, element) {
                report(.invalidValue, itemPath, value: element, problem: problem, allowed: allowed)
                return nil
            }
            guard !names.contains(where: { $0.lowercased() == name.lowercased() }) else {
                report(.invalidValue, itemPath, value: element, problem: "\(element.rendered) is listed twice", allowed: allowed)
                return nil
            }
            names.append(name)
        }
        return names
    }
}
