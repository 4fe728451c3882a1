extension PolicyFileDecoder {
    static let targetedFieldsAllowed =
        "an array of at most 8 distinct field names (RFC 9110 tokens) other than Cache-Control, e.g. [\"CDN-Cache-Control\"]"

    /// `targetedCacheControl` (tier or route): field names, in the order a cache consults them (RFC 9213
    /// §2.1); an empty array honours none.
    mutating func targetedFieldNames(_ value: PolicyJSON, at path: String) -> [String]? {
        let allowed = Self.targetedFieldsAllowed
        guard case .array(let elements) = value else {
            reportType(value, at: path, allowed: allowed)
            return nil
        }
        guard elements.count <= PolicyFormat.maximumTargetedFields else {
            report(.invalidValue, path, value: value, problem: "\(elements.count) entries are more than 8", allowed: allowed)
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
            guard name.lowercased() != "cache-control" else {
                report(.invalidValue, itemPath, value: element,
                       problem: "Cache-Control is what a targeted field replaces, not a targeted field", allowed: allowed)
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
