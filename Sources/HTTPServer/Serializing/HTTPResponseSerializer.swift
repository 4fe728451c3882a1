import MediaCore
/// Turns an ``HTTPServerResponse`` into the exact bytes of an HTTP/1.1 response (RFC 9112 §4, §6),
/// either head and body in one buffer, or the head alone (``serializeHead(_:headRequest:connection:date:into:)``)
/// for a gathered write of head and body.
public enum HTTPResponseSerializer {
    /// What the `Connection` field says.
    public enum ConnectionField: Sendable, Hashable {
        /// No `Connection` field (HTTP/1.1 persistent default).
        case omitted
        /// `Connection: keep-alive` (an HTTP/1.0 client that asked for it).
        case keepAlive
        /// `Connection: close`: the server closes after this response.
        case close
    }

    /// Serializes `response`.
    ///
    /// Writes `HTTP/1.1 <status> <reason>`, the response's fields (minus `Content-Length`,
    /// `Connection` and `Transfer-Encoding`), `Date` when given and absent from the response,
    /// `Content-Length` (omitted for 1xx and 204; for `HEAD` and 304 a handler-supplied value
    /// wins when the body is empty), `Connection` per `connection`, then the body unless
    /// `headRequest` or the status forbids one (1xx, 204, 304).
    /// - Returns: the response bytes.
    public static func serialize(
        _ response: HTTPServerResponse, headRequest: Bool, connection: ConnectionField, date: String? = nil
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + response.headerFields.count * 48 + response.bodyCount)
        if serializeHead(response, headRequest: headRequest, connection: connection, date: date, into: &out) {
            out.append(contentsOf: response.body)
        }
        return out
    }

    /// Appends the status line and header section of `response` (through the empty line) to `out`,
    /// exactly as ``serialize(_:headRequest:connection:date:)`` writes them, without the body, so a
    /// server can send the head and the body's own storage with one `sendmsg` (no body copy).
    /// - Returns: whether the body follows the head on the wire (not for `HEAD`, 1xx, 204, 304).
    public static func serializeHead(
        _ response: HTTPServerResponse, headRequest: Bool, connection: ConnectionField, date: String? = nil,
        into out: inout [UInt8]
    ) -> Bool {
        let status = response.status
        let statusForbidsBody = status < 200 || status == 204 || status == 304
        let sendsBody = !headRequest && !statusForbidsBody
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &out)
        out.append(ASCII.space)
        out.append(contentsOf: response.reasonPhrase.utf8)
        out.append(contentsOf: crlf)

        var handlerLength: String?
        var hasDate = false
        for field in response.headerFields {
            if HTTPFields.namesEqual(field.name, "Content-Length") {
                handlerLength = field.value
                continue
            }
            if HTTPFields.namesEqual(field.name, "Connection") || HTTPFields.namesEqual(field.name, "Transfer-Encoding") {
                continue
            }
            if !hasDate && HTTPFields.namesEqual(field.name, "Date") { hasDate = true }
            appendField(field.name, field.value, to: &out)
        }
        if let extra = response.additionalField { appendField(extra.name, extra.value, to: &out) }
        if let date, !hasDate { appendField("Date", date, to: &out) }
        if !(status < 200 || status == 204) {
            if (headRequest || status == 304), response.bodyCount == 0, let handlerLength {
                appendField("Content-Length", handlerLength, to: &out)
            } else if status != 304 || response.bodyCount != 0 {
                out.append(contentsOf: "Content-Length: ".utf8)
                appendDecimal(response.bodyCount, to: &out)
                out.append(contentsOf: crlf)
            }
        }
        switch connection {
        case .omitted: break
        case .keepAlive: appendField("Connection", "keep-alive", to: &out)
        case .close: appendField("Connection", "close", to: &out)
        }
        out.append(contentsOf: crlf)
        return sendsBody
    }

    /// The bytes of an interim response (RFC 9112 §4): `HTTP/1.1 <status> <reason>`, its fields (minus
    /// `Content-Length`, `Connection` and `Transfer-Encoding`), the empty line; no `Date`, no body.
    public static func serializeInterim(_ response: HTTPServerInterimResponse) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + response.headerFields.count * 48)
        _ = serializeHead(
            HTTPServerResponse(status: response.status, reasonPhrase: response.reasonPhrase, headerFields: response.headerFields),
            headRequest: false, connection: .omitted, date: nil, into: &out)
        return out
    }

    static let crlf: [UInt8] = [ASCII.cr, ASCII.lf]

    static func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(ASCII.colon)
        out.append(ASCII.space)
        // Never let a handler's value split the head: CR and LF become spaces (RFC 9110 §5.5); non-ASCII
        // scalars are the octets they were read as (``FieldValueOctets``). Common case: no such byte, so the
        // value is appended in one copy.
        if value.utf8.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 || $0 >= 0x80 }) {
            FieldValueOctets.append(value, to: &out)
        } else {
            out.append(contentsOf: value.utf8)
        }
        out.append(contentsOf: crlf)
    }

    /// Appends the decimal digits of a non-negative `value`, without an intermediate array.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(0x30 + value))
            return
        }
        var divisor = 10
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(0x30 + rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
