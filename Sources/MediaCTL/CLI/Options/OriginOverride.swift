import Foundation

/// One `--origin ROUTE=URL` of `mediactl serve`: the route's origin base URL is replaced.
///
/// The route name is not checked against the policies here (the command does that, exit 2).
public struct OriginOverride: Sendable, Hashable, CustomStringConvertible {
    /// The route name, such as `"catalog"`.
    public var route: String
    /// The new origin base URL, `http` or `https` with a host, as given, with a `/` added when its path
    /// does not end with one (`http://127.0.0.1:8081` is `http://127.0.0.1:8081/`).
    public var url: String

    public init(route: String, url: String) {
        self.route = route
        self.url = url
    }

    /// `ROUTE=URL`.
    public var description: String { "\(route)=\(url)" }

    /// Parses `ROUTE=URL` (split at the first `=`). A URL without a query or fragment whose path does not
    /// end with `/` gets one, as an origin base is a folder (`catalog=http://h/catalog` is `http://h/catalog/`).
    /// - Returns: the override, or the reason: `"expected ROUTE=URL"`, `"route name is empty"`,
    ///   `"URL must be http:// or https:// with a host"`.
    static func parse(_ text: String) -> Result<OriginOverride, ReasonError> {
        guard let equals = text.firstIndex(of: "=") else { return .failure("expected ROUTE=URL") }
        let route = String(text[..<equals])
        let url = String(text[text.index(after: equals)...])
        if route.isEmpty { return .failure("route name is empty") }
        guard OriginURL.isValid(url) else { return .failure("URL must be http:// or https:// with a host") }
        let base = url.hasSuffix("/") || url.contains("?") || url.contains("#") ? url : url + "/"
        return .success(OriginOverride(route: route, url: base))
    }
}

/// Checks of origin URLs given on the command line.
enum OriginURL {
    /// Whether `text` is an absolute `http`/`https` URL with a non-empty host and no whitespace.
    static func isValid(_ text: String) -> Bool {
        guard !text.contains(where: { $0.isWhitespace }),
            let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
