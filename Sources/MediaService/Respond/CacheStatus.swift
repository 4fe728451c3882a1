/// Builds `Cache-Status` field values (RFC 9211) for the cache named `mediactl`.
///
/// Examples: `mediactl; hit; ttl=3400`, `mediactl; fwd=uri-miss; stored`,
/// `mediactl; fwd=stale; fwd-status=304; ttl=60`, `mediactl; fwd=uri-miss; detail=no-store`.
public struct CacheStatus: Sendable, Hashable, CustomStringConvertible {
    /// RFC 9211 §2.2 `fwd` values used here.
    public enum Forward: String, Sendable, Hashable {
        /// No stored response for the URI.
        case uriMiss = "uri-miss"
        /// Stored responses exist but none matches the request's `Vary` fields.
        case varyMiss = "vary-miss"
        /// The request asked to skip the cache (`no-cache`, reload).
        case request
        /// A stored response was stale and had to be validated.
        case stale
        /// The stored response may not be reused without validation (`no-cache`, policy cap).
        case method
    }

    /// The cache name. Default: `mediactl`.
    public var cacheName = "mediactl"
    /// Served from storage without contacting the origin.
    public var hit = false
    /// Why the request went forward, or `nil` on a hit.
    public var forward: Forward?
    /// The status the origin answered to the forwarded request.
    public var forwardStatus: Int?
    /// Remaining freshness in seconds (negative when stale).
    public var ttl: Int64?
    /// Whether the answer was stored.
    public var stored = false
    /// Whether this request was collapsed into another's forward request (RFC 9211 §2.5).
    public var collapsed = false
    /// Implementation detail: a storage class, a skip reason, a stale reason.
    public var detail: String?

    public init(hit: Bool = false, forward: Forward? = nil, forwardStatus: Int? = nil, ttl: Int64? = nil,
                stored: Bool = false, detail: String? = nil) {
        self.hit = hit
        self.forward = forward
        self.forwardStatus = forwardStatus
        self.ttl = ttl
        self.stored = stored
        self.detail = detail
    }

    public var description: String {
        // Written as bytes into one buffer (no parts array, no `joined`, no interpolation): this is built on
        // every forwarded response.
        var out: [UInt8] = []
        out.reserveCapacity(cacheName.utf8.count + 80)
        out.appendUTF8(cacheName)
        if hit { Self.append("; hit", to: &out) }
        if let forward { Self.append("; fwd=", to: &out); out.appendUTF8(forward.rawValue) }
        if let forwardStatus { Self.append("; fwd-status=", to: &out); Self.appendDecimal(Int64(forwardStatus), to: &out) }
        if let ttl { Self.append("; ttl=", to: &out); Self.appendDecimal(ttl, to: &out) }
        if stored { Self.append("; stored", to: &out) }
        if collapsed { Self.append("; collapsed", to: &out) }
        if let detail { Self.append("; detail=", to: &out); out.appendUTF8(detail) }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal, as `String(value)` writes it.
    private static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }
}
