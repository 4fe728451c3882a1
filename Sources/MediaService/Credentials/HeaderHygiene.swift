import HTTPCaching
import MediaCore

/// Which client request fields an image tier sends to its origin: an allow-list, not a deny-list
/// (docs/policy-format.md, "What reaches the origin").
///
/// A client field passes only when it is one of:
/// - the request's cache directives, `Cache-Control` and `Pragma` (RFC 9111 §5.2.1), which the cache itself honours;
/// - `Authorization`, when the tier forwards the credential (`forwardAuthorization`);
/// - on a request with a body (an unsafe method on a `"methods": "all"` route), the body's own metadata:
///   `Content-Type`, `Content-Encoding`, `Content-Language` (RFC 9110 §8.3–8.5);
/// - a name the tier lists in `forwardRequestHeaders` (`forwarding`), compared ignoring ASCII case.
///
/// A name the request's `Connection` lists is hop-by-hop (RFC 9110 §7.6.1) and never passes. The client's
/// `User-Agent` is replaced by ``ServiceVersion/userAgent`` unless the tier forwards `User-Agent`. Everything else
/// (`Host`, `Cookie`, `Forwarded`, `X-Forwarded-*`, `X_Forwarded_Host`, `X-Original-URL`, `X-HTTP-Method-Override`,
/// `Referer`, `Accept`, `Accept-Language`, …) stays with mediactl: an origin that trusts such a field cannot be
/// steered into storing one client's answer for everyone. The pipeline then adds what it needs itself:
/// its own validators, `Accept-Encoding: identity`, and on signed URLs the route's `originAuthorization` and
/// `subjectHeader`. Generic (`*/*`) tiers forward every end-to-end field instead (``MediaService``'s pass-through).
public enum HeaderHygiene {
    /// The client fields every image tier passes on, lower case.
    public static let passedNames = ["cache-control", "pragma"]
    /// The client fields passed on with a request body, lower case.
    public static let passedBodyNames = ["content-type", "content-encoding", "content-language"]

    /// The fields sent to an image tier's origin for a client request with fields `client`.
    /// - Parameters:
    ///   - forwardAuthorization: whether the tier forwards the client's `Authorization` (`credentials`
    ///     `forward` or `bearer-required`).
    ///   - forwarding: the tier's `forwardRequestHeaders`, any case.
    ///   - carriesBody: whether the request's body is forwarded (``passedBodyNames`` pass too). Default: `false`.
    /// - Returns: the passed fields in the client's order, then `User-Agent`.
    public static func originRequestFields(from client: HTTPFields, forwardAuthorization: Bool,
                                           forwarding: [String] = [], carriesBody: Bool = false) -> HTTPFields {
        let hopByHop = client.listValues(for: .connection).map(String.init)
        var forwardsUserAgent = false
        for name in forwarding where HTTPFields.namesEqual(name, "user-agent") { forwardsUserAgent = true }
        func passes(_ name: String) -> Bool {
            let listed = passedNames.contains { HTTPFields.namesEqual(name, $0) }
                || (forwardAuthorization && HTTPFields.namesEqual(name, "authorization"))
                || forwarding.contains { HTTPFields.namesEqual(name, $0) }
                || (carriesBody && passedBodyNames.contains { HTTPFields.namesEqual(name, $0) })
            return listed && !hopByHop.contains { HTTPFields.namesEqual(name, $0) }
        }
        var lines = client.fields.filter { passes($0.name) }
        if !forwardsUserAgent { lines.append(HTTPFields.Field(name: "User-Agent", value: ServiceVersion.userAgent)) }
        return HTTPFields(lines: lines)
    }

    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return false }
            return true
        }
    }
}
