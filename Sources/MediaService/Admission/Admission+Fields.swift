import HTTPCaching
import MediaCore

extension Admission {
    /// Conformance mode: the client's fields minus hop-by-hop ones (RFC 9110 §7.6.1: `Connection`, the
    /// fields it names, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`),
    /// `Proxy-*`, `Host` (the origin's is sent), `Content-Length` (recomputed from the body) and `Expect`
    /// (met by the service, which reads the whole body first).
    static func passThroughFields(_ client: HTTPFields, forwardAuthorization: Bool) -> HTTPFields {
        let named = Set(client.listValues(for: .connection).map { $0.lowercased() })
        // `Expect`: the service met the expectation itself (it reads the whole body before forwarding).
        let hopByHop = StoredFields.hopByHop.union(["trailer", "host", "content-length", "expect"])
        var out = client
        out.removeAll { name in
            hopByHop.contains(name) || named.contains(name) || name.hasPrefix("proxy-")
                || (!forwardAuthorization && name == "authorization")
        }
        return out
    }
}
