/// A minimal absolute URI (RFC 3986 §3) with reference resolution (§5.2) and origin comparison
/// (RFC 9110 §4.3.1), enough for invalidation. Not a general URI library: no percent-decoding,
/// no IDNA; scheme and host are compared case-insensitively.
public struct URIReference: Sendable, Hashable, CustomStringConvertible {
    /// Lower-cased scheme, e.g. `https`.
    public var scheme: String
    /// Authority as written (userinfo, host, port), e.g. `img.example:8443`.
    public var authority: String
    /// Path, e.g. `/a/b.jpg` (empty allowed).
    public var path: String
    /// Query without `?`, or `nil`.
    public var query: String?

    /// Parses an absolute URI `scheme://authority[path][?query][#fragment]` (fragment dropped);
    /// `nil` for anything else.
    public init?(absolute text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterSlashes.endIndex
        self.scheme = scheme.lowercased()
        authority = String(afterSlashes[..<authorityEnd])
        (path, query) = URIReference.splitPathQuery(afterSlashes[authorityEnd...])
    }

    init(scheme: String, authority: String, path: String, query: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
    }

    public var description: String {
        scheme + "://" + authority + path + (query.map { "?" + $0 } ?? "")
    }

    /// The origin (RFC 9110 §4.3.1): scheme, lower-cased host and port (default 80 for http,
    /// 443 for https); userinfo ignored.
    public var origin: String {
        var hostPort = Substring(authority)
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        var host = hostPort, port = ""
        if let colon = hostPort.lastIndex(of: ":"), !hostPort[colon...].contains("]") {
            host = hostPort[..<colon]
            port = String(hostPort[hostPort.index(after: colon)...])
        }
        if port.isEmpty { port = scheme == "https" ? "443" : scheme == "http" ? "80" : "" }
        return scheme + "://" + host.lowercased() + ":" + port
    }

    /// Resolves `reference` (absolute, network-path `//…`, absolute-path `/…`, relative path, query-only
    /// `?…` or empty) against `self` (RFC 3986 §5.2.2, with dot-segment removal §5.2.4); `nil` when the
    /// reference is an absolute URI this type cannot parse.
    public func resolve(_ reference: String) -> URIReference? {
        let ref = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if let colon = ref.firstIndex(of: ":"),
           !ref[..<colon].contains("/"), !ref[..<colon].contains("?"), !ref[..<colon].isEmpty {
            return URIReference(absolute: ref)
        }
        if ref.hasPrefix("//") { return URIReference(absolute: scheme + ":" + ref) }
        let (refPath, refQuery) = URIReference.splitPathQuery(ref[...])
        if refPath.isEmpty {
            return URIReference(scheme: scheme, authority: authority, path: path, query: refQuery ?? query)
        }
        let merged: String
        if refPath.hasPrefix("/") {
            merged = refPath
        } else if path.isEmpty {
            merged = "/" + refPath
        } else {
            merged = String(path[..<(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)]) + refPath
        }
        return URIReference(scheme: scheme, authority: authority, path: URIReference.removeDotSegments(merged), query: refQuery)
    }

    static func splitPathQuery(_ text: Substring) -> (String, String?) {
        let noFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if let mark = noFragment.firstIndex(of: "?") {
            return (String(noFragment[..<mark]), String(noFragment[noFragment.index(after: mark)...]))
        }
        return (String(noFragment), nil)
    }

    /// RFC 3986 §5.2.4 on a path.
    static func removeDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
            } else if segment == ".." {
                if output.count > 1 { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
