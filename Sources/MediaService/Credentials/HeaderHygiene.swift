import HTTPCaching

/// Which client request fields never reach the origin.
///
/// Dropped (names compared case-insensitively): `Host`; `Cookie`; `Forwarded` and every
/// `X-Forwarded-*`; the client-IP and URL-override fields origins often trust (`X-Real-IP`,
/// `True-Client-IP`, `X-Client-IP`, `Client-IP`, `X-Original-URL`, `X-Rewrite-URL`, `X-Host`,
/// `X-HTTP-Method-Override`); hop-by-hop fields (RFC 9110 §7.6.1: `Connection`, `Keep-Alive`,
/// `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, and every name listed in
/// `Connection`); `Expect` (the service meets a `100-continue` itself: it reads the whole body
/// before forwarding); every `Proxy-*`; and `Authorization` unless the tier forwards it.
public enum HeaderHygiene {
    /// Exact names dropped before an origin fetch, lower case.
    public static let droppedNames: Set<String> = [
        "host", "cookie", "forwarded", "connection", "keep-alive", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade", "x-real-ip", "true-client-ip", "x-client-ip", "client-ip",
        "x-original-url", "x-rewrite-url", "x-host", "x-http-method-override", "expect",
    ]

    /// Name prefixes dropped before an origin fetch, lower case.
    public static let droppedPrefixes: [String] = ["x-forwarded-", "proxy-"]

    /// Whether a field named `name` is dropped regardless of `Connection` and tier.
    public static func isDropped(_ name: String) -> Bool {
        guard isASCII(name) else { return isDroppedLowercased(name.lowercased()) }
        let count = name.utf8.count
        if count < droppedNamesByLength.count {
            for candidate in droppedNamesByLength[count] where HTTPFields.namesEqual(name, candidate) { return true }
        }
        for prefix in droppedPrefixes where hasPrefixIgnoringASCIICase(name, prefix) { return true }
        return false
    }

    /// ``isDropped(_:)`` for a name already lower-cased (Unicode rules, as `String.lowercased()`).
    static func isDroppedLowercased(_ lower: String) -> Bool {
        droppedNames.contains(lower) || droppedPrefixes.contains { lower.hasPrefix($0) }
    }

    /// ``droppedNames`` grouped by UTF-8 length (index = length): an ASCII name is compared, ignoring ASCII
    /// case, only with the few names of its length, without building a lower-cased copy.
    static let droppedNamesByLength: [[String]] = {
        var table = [[String]](repeating: [], count: (droppedNames.map(\.utf8.count).max() ?? 0) + 1)
        for name in droppedNames.sorted() { table[name.utf8.count].append(name) }
        return table
    }()

    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return false }
            return true
        }
    }

    /// Whether ASCII `name` starts with the lower-case ASCII `prefix`, ignoring ASCII case.
    static func hasPrefixIgnoringASCIICase(_ name: String, _ prefix: String) -> Bool {
        var names = name.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = names.next() else { return false }
            if byte != expected && (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected { return false }
        }
        return true
    }

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
