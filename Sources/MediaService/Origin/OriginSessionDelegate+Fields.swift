import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCaching

extension OriginSessionDelegate {
    /// Content codings libcurl advertises and decodes by itself (PLATFORM.md).
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd"]

    /// Hop-by-hop response fields (RFC 9110 §7.6.1), never passed on.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]

    /// The response fields as the caller should see them, sorted by name:
    /// - hop-by-hop fields and the names listed in `Connection` are removed;
    /// - when libcurl decoded the body (`Content-Encoding` only lists codings it decodes),
    ///   `Content-Encoding` is removed, so the fields describe the bytes actually returned;
    /// - `Content-Length` is removed except for `HEAD` (the body's count is authoritative).
    static func fields(of response: HTTPURLResponse, method: String?) -> HTTPFields {
        let pairs = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key.base as? String else { return nil }
            return (name, "\(value)")
        }
        var fields = HTTPFields(pairs.sorted { $0.0.lowercased() < $1.0.lowercased() })
        let listed = Set(fields.listValues(for: "Connection").map { $0.lowercased() })
        fields.removeAll { hopByHop.contains($0) || listed.contains($0) }
        let codings = fields.listValues(for: "Content-Encoding").map { $0.lowercased() }
        if !codings.isEmpty, codings.allSatisfy({ decodedCodings.contains($0) || $0 == "identity" }) {
            fields.remove("Content-Encoding")
        }
        if method != "HEAD" { fields.remove("Content-Length") }
        return fields
    }
}
