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
        guard isASCII(name) else { return isDroppedLowercased(name.lowercased()) }
        return droppedPrefixes.contains { hasPrefixIgnoringASCIICase(name, $0) }
            || droppedNameList.contains { HTTPFields.namesEqual(name, $0) }
    }

    /// ``isDropped(_:)`` for a name already lower-cased (Unicode rules, as `String.lowercased()`).
    static func isDroppedLowercased(_ lower: String) -> Bool {
        droppedNames.contains(lower) || droppedPrefixes.contains { lower.hasPrefix($0) }
    }

    /// ``droppedNames`` as an array: compared case-insensitively without lower-casing the candidate.
    static let droppedNameList = Array(droppedNames)

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// Whether ASCII `name` starts with the lower-case ASCII `prefix`, ignoring ASCII case.
    static func hasPrefixIgnoringASCIICase(_ name: String, _ prefix: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count >= prefix.utf8.count else { return false }
        return zip(utf8, prefix.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }

    /// The client's fields minus every dropped one, in order.
    /// - Parameters:
    ///   - client: the fields of the client request.
    ///   - forwardAuthorization: keep `Authorization` (tiers `bearer-required` and `forward`).
    /// - Complexity: O(n) in the number of field lines.
    public static func originRequestFields(from client: HTTPFields, forwardAuthorization: Bool) -> HTTPFields {
        let connectionOptions = Set(client.listValues(for: "Connection").map { $0.lowercased() })
        // Each name is judged lower-cased (as `HTTPFields.removeAll(where:)` passes it); ASCII names are
        // compared without building the lower-cased copy, and nothing is copied when nothing is dropped.
        func drops(_ name: String) -> Bool {
            guard isASCII(name) else {
                let lower = name.lowercased()
                return isDroppedLowercased(lower) || connectionOptions.contains(lower)
                    || (!forwardAuthorization && lower == "authorization")
            }
            return isDropped(name) || (!connectionOptions.isEmpty && connectionOptions.contains(name.lowercased()))
                || (!forwardAuthorization && HTTPFields.namesEqual(name, "authorization"))
        }
        guard client.fields.contains(where: { drops($0.name) }) else { return client }
        return HTTPFields(lines: client.fields.filter { !drops($0.name) })
    }
}
