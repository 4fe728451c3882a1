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
    /// `Cache-Status` with a `ttl=59` read as `ttl=60`: for a miss of an nginx origin's `max-age=60`, whose `Date` has
    /// one-second resolution, so the apparent age (RFC 9111 §4.2.3) is 1 s when the answer arrives in the next second
    /// (a derived image, which is stored after its transform, more often). Any other value stays as it is.
    var cacheStatusOfAMinute: String? {
        header("Cache-Status")?.replacingOccurrences(of: "; ttl=59;", with: "; ttl=60;")
    }

    /// The parsed `Cache-Status` value, or an empty one.
    var cacheStatus: CacheStatusValue { CacheStatusValue(header("Cache-Status") ?? "") }
}
