import MediaCore
import MediaCrypto
import Synchronization

/// Request ids (docs/operations.md, "Request ids"): the front's `X-Request-Id` when it is well formed, else one made
/// here. Echoed downstream, sent to the origin, written in the access log and in every service log line about the
/// request, so one id follows a request through the BFF, mediactl and the origin.
public enum RequestID {
    /// The field: `X-Request-Id`.
    public static let fieldName: HTTPFieldName = "X-Request-Id"

    /// Whether a front's value is used as it is: 1 to 128 bytes of `A-Z a-z 0-9 - . _ : + / =` (UUIDs, ULIDs, hex,
    /// base64, nginx's `$request_id`, AWS's `Root=1-…` parts). Anything else is replaced, never logged.
    public static func isWellFormed(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "+"),
                 UInt8(ascii: "/"), UInt8(ascii: "="):
                true
            default:
                false
            }
        }
    }

    /// The id of a request with `fields`: the first well-formed `X-Request-Id`, else a new one (``make()``).
    public static func of(_ fields: HTTPFields) -> String {
        if let given = fields[fieldName], isWellFormed(given) { return given }
        return make()
    }

    /// A new id: 8 hex digits drawn once per process, `-`, and a 12-hex-digit counter (`5f0c2a9e-00000000002a`):
    /// unique within the process, distinct across processes with overwhelming probability, and cheap (no random
    /// draw per request).
    public static func make() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        var digits = String(count, radix: 16)
        if digits.utf8.count < 12 { digits = String(repeating: "0", count: 12 - digits.utf8.count) + digits }
        return prefix + "-" + digits
    }

    private static let counter = Atomic<UInt64>(0)
    private static let prefix: String = {
        let bytes = (try? SecureRandom.bytes(count: 4)) ?? [0, 0, 0, 0]
        return bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16) }.joined()
    }()
}
