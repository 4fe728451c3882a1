import MediaTestSupport
/// A `Cache-Status` field value (RFC 9211) split into its parameters:
/// `mediactl; fwd=uri-miss; stored` → `hit == false`, `forward == "uri-miss"`, `stored == true`.
struct CacheStatusValue: Sendable, Equatable {
    var raw: String
    var cacheName: String
    var parameters: [String: String]

    init(_ raw: String) {
        self.raw = raw
        let parts = raw.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        cacheName = parts.first ?? ""
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            parameters[pair[0]] = pair.count == 2 ? pair[1] : ""
        }
        self.parameters = parameters
    }

    var hit: Bool { parameters["hit"] != nil }
    var stored: Bool { parameters["stored"] != nil }
    var forward: String? { parameters["fwd"] }
    var forwardStatus: String? { parameters["fwd-status"] }
    var detail: String? { parameters["detail"] }
}

extension HTTPResponse {
    /// The parsed `Cache-Status` value, or an empty one.
    var cacheStatus: CacheStatusValue { CacheStatusValue(header("Cache-Status") ?? "") }
}
