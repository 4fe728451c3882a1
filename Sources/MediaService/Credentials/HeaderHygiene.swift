import HTTPCaching

/// Which client request fields never reach the origin.
///
/// Dropped (names compared case-insensitively): `Host`; `Cookie`; `Forwarded` and every
/// `X-Forwarded-*`; the client-IP and URL-override fields origins often trust (`X-Real-IP`,
/// `True-Client-IP`, `X-Client-IP`, `Client-IP`, `X-Original-URL`, `X-Rewrite-URL`, `X-Host`,
/// `X-HTTP-Method-Override`); hop-by-hop fields (RFC 9110 §7.6.1: `Connection`, `Keep-Alive`,
/// `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, and every name listed in
/// `Connection`); every `Proxy-*`; and `Authorization` unless the tier forwards it.
public enum HeaderHygiene {
    /// Exact names dropped before an origin fetch, lower case.
    public static let droppedNames: Set<String> = [
        "host", "cookie", "forwarded", "connection", "keep-alive", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade", "x-real-ip", "true-client-ip", "x-client-ip", "client-ip",
        "x-original-url", "x-rewrite-url", "x-host", "x-http-method-override",
    ]

    /// Name prefixes dropped before an origin fetch, lower case.
    public static let droppedPrefixes: [String] = ["x-forwarded-", "proxy-"]

    /// Whether a field named `name` is dropped regardless of `Connection` and tier.
    public static func isDropped(_ name: String) -> Bool {
        let lower = name.lowercased()
        return droppedNames.contains(lower) || droppedPrefixes.contains { lower.hasPrefix($0) }
    }

    /// The client's fields minus every dropped one, in order.
    /// - Parameters:
    ///   - client: the fields of the client request.
    ///   - forwardAuthorization: keep `Authorization` (tiers `bearer-required` and `forward`).
    /// - Complexity: O(n) in the number of field lines.
    public static func originRequestFields(from client: HTTPFields, forwardAuthorization: Bool) -> HTTPFields {
        let connectionOptions = Set(client.listValues(for: "Connection").map { $0.lowercased() })
        var out = client
        out.removeAll { name in
            isDropped(name) || connectionOptions.contains(name) || (!forwardAuthorization && name == "authorization")
        }
        return out
    }
}
