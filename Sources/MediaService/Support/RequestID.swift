import MediaCore
import MediaCrypto
import Synchronization

/// Request ids (docs/operations.md, "Request ids"): the front's `X-Request-Id` when it is well formed, else one made
/// here. Echoed downstream, sent to the origin, written in the access log and in every service log line about the
/// request, so one id follows a request through the BFF, mediactl and the origin.
public enum RequestID {
    /// The field: `X-Request-Id`.
    public static let fieldName: HTTPFieldName = "X-Request-Id"

    /// Whether a front's value is used as it is: 1 to 128 bytes of `A-Z a-z 0-9 - . _ : + / = ;` (UUIDs, ULIDs, hex,
    /// base64, nginx's `$request_id`, AWS's `Root=1-…;Parent=…;Sampled=1`). Anything else (a comma would split the
    /// field into a list, RFC 9110 §5.3) is replaced, never logged.
    public static func isWellFormed(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "+"),
                 UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: ";"):
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

    /// A new id, 15 characters of lower-case base32 (`0-9 a-v`): 5 drawn once per process, `-`, and a 9-character
    /// counter (`k3f9q-00000001a`): unique within the process for 2^45 requests, distinct across processes with high
    /// probability, and cheap: no random draw per request, and short enough to be a small string (no allocation).
    public static func make() -> String {
        var count = counter.add(1, ordering: .relaxed).newValue
        // The prefix's five digits as one word, read once (each read of a lazy global is a call on the hit path).
        var prefix = self.prefix
        return String(unsafeUninitializedCapacity: 15) { buffer in
            for index in 0..<5 {
                buffer[index] = digit(prefix & 31)
                prefix >>= 5
            }
            buffer[5] = UInt8(ascii: "-")
            for index in stride(from: 14, through: 6, by: -1) {
                buffer[index] = digit(count & 31)
                count >>= 5
            }
            return 15
        }
    }

    /// The base32 digit of `value` (0–31): `0-9`, then `a-v`.
    @inline(__always)
    private static func digit(_ value: UInt64) -> UInt8 {
        value < 10 ? UInt8(truncatingIfNeeded: value) &+ 48 : UInt8(truncatingIfNeeded: value) &+ 87
    }

    private static let counter = Atomic<UInt64>(0)
    /// 25 random bits, drawn once per process: the ids' first five digits.
    private static let prefix: UInt64 = {
        let bytes = (try? SecureRandom.bytes(count: 4)) ?? [0, 0, 0, 0]
        return bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x1FF_FFFF
    }()
}
