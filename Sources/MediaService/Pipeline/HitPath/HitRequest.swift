import HTTPCaching
import MediaCore

/// One-pass classification of a client request for the memory-hit fast path.
enum HitRequest {
    /// Whether `fields` has none of the fields that change how a stored response answers: request
    /// `Cache-Control` and `Pragma` (RFC 9111 §5.2.1, §5.4), conditionals and ranges (RFC 9110 §13,
    /// §14: `If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`, `If-Range`,
    /// `Range`), credentials (`Authorization`, `Cookie`) and body framing (`Content-Length`,
    /// `Transfer-Encoding`). Names compare ASCII case-insensitively, by length first. With `allowsAuthorization` (a
    /// bearer tier, whose partition the hit path computes from it), `Authorization` is allowed.
    /// - Complexity: O(total bytes of the names that have the length of one of those names).
    static func isPlain(_ fields: HTTPFields, allowsAuthorization: Bool = false) -> Bool {
        var authorization: Authorization = .none
        return isPlain(fields, allowsAuthorization: allowsAuthorization, authorization: &authorization)
    }

    /// The `Authorization` lines of a request: none, exactly one (its value), or several (the full path refuses them).
    enum Authorization: Equatable {
        case none, one(String), several
    }

    /// ``isPlain(_:allowsAuthorization:)`` that also says, in the same pass, which `Authorization` lines the request has
    /// (read only when `allowsAuthorization`).
    static func isPlain(_ fields: HTTPFields, allowsAuthorization: Bool, authorization: inout Authorization) -> Bool {
        for field in fields.fields {
            switch field.name.utf8.count {
            case 5, 6, 8, 13, 14, 17, 19: break
            default: continue
            }
            var name = field.name
            let matched = name.withUTF8 { bytes -> Bool in
                switch bytes.count {
                case 5: return equalsLower(bytes, "range")
                case 6: return equalsLower(bytes, "pragma") || equalsLower(bytes, "cookie")
                case 8: return equalsLower(bytes, "if-match") || equalsLower(bytes, "if-range")
                case 13:
                    if equalsLower(bytes, "cache-control") || equalsLower(bytes, "if-none-match") { return true }
                    guard equalsLower(bytes, "authorization") else { return false }
                    guard allowsAuthorization else { return true }
                    authorization = authorization == .none ? .one(field.value) : .several
                    return false
                case 14: return equalsLower(bytes, "content-length")
                case 17: return equalsLower(bytes, "if-modified-since") || equalsLower(bytes, "transfer-encoding")
                case 19: return equalsLower(bytes, "if-unmodified-since")
                default: return false
                }
            }
            if matched { return false }
        }
        return true
    }

    /// Whether `bytes` equal `lower` (lower-case ASCII, same length) ignoring ASCII case.
    @inline(__always)
    static func equalsLower(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: StaticString) -> Bool {
        lower.withUTF8Buffer { expected in
            guard expected.count == bytes.count else { return false }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if folded != expected[index] { return false }
            }
            return true
        }
    }
}
