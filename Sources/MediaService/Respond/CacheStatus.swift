import MediaCore
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
    public var forwardStatus: HTTPStatus?
    /// Remaining freshness in seconds (negative when stale).
    public var ttl: Int64?
    /// Whether the answer was stored.
    public var stored = false
    /// Whether this request was collapsed into another's forward request (RFC 9211 §2.5).
    public var collapsed = false
    /// Implementation detail: a storage class, a skip reason, a stale reason.
    public var detail: String?

    public init(hit: Bool = false, forward: Forward? = nil, forwardStatus: HTTPStatus? = nil, ttl: Int64? = nil,
                stored: Bool = false, detail: String? = nil) {
        self.hit = hit
        self.forward = forward
        self.forwardStatus = forwardStatus
        self.ttl = ttl
        self.stored = stored
        self.detail = detail
    }

    public var description: String {
        // Written into a stack buffer, then one `String` (no parts array, no `joined`, no interpolation, no
        // intermediate array): this is built on every forwarded response. Fixed parts need ≤ 107 bytes.
        let capacity = cacheName.utf8.count + (detail?.utf8.count ?? 0) + 128
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> String in
            var count = 0
            func write(_ text: String) {
                var text = text
                text.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + bytes.count)]).initialize(from: bytes)
                    count += bytes.count
                }
            }
            func write(_ text: StaticString) {
                let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
                _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + bytes.count)]).initialize(from: bytes)
                count += bytes.count
            }
            func writeDecimal(_ value: Int64) {
                if value < 0 {
                    buffer[count] = UInt8(ascii: "-")
                    count += 1
                }
                var magnitude = value.magnitude
                var digits = 1
                var scale: UInt64 = 10
                while digits < 20 && magnitude >= scale {
                    digits += 1
                    if scale > UInt64.max / 10 { break }
                    scale *= 10
                }
                var index = count + digits - 1
                repeat {
                    buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    index -= 1
                } while index >= count
                count += digits
            }
            write(cacheName)
            if hit { write("; hit" as StaticString) }
            if let forward { write("; fwd=" as StaticString); write(forward.rawValue) }
            if let forwardStatus { write("; fwd-status=" as StaticString); writeDecimal(Int64(forwardStatus.code)) }
            if let ttl { write("; ttl=" as StaticString); writeDecimal(ttl) }
            if stored { write("; stored" as StaticString) }
            if collapsed { write("; collapsed" as StaticString) }
            if let detail { write("; detail=" as StaticString); write(detail) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }
}
