import CCurl
import HTTPCaching
import MediaCore
import MediaOrigin

extension CurlEngine {
    /// Sets every option of one attempt on a fresh (or reset) easy handle.
    /// - Returns: the error to fail the transfer with, or `nil`.
    func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) -> (any Error)? {
        let api = library.api
        let request = transfer.request
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        func long(_ option: Int32, _ value: Int) -> Bool { ccurl_easy_setopt_long(api, easy, option, value) == CCURLE_OK }
        func pointer(_ option: Int32, _ value: UnsafeRawPointer?) -> Bool {
            ccurl_easy_setopt_pointer(api, easy, option, value) == CCURLE_OK
        }
        func string(_ option: Int32, _ value: String) -> Bool {
            value.withCString { ccurl_easy_setopt_pointer(api, easy, option, $0) == CCURLE_OK }
        }
        guard string(Int32(CCURLOPT_URL), request.url) else {
            return OriginError(.invalidRequest, "not an absolute http(s) URL")
        }
        var configured = long(Int32(CCURLOPT_NOSIGNAL), 1)
            && string(Int32(CCURLOPT_PROTOCOLS_STR), "http,https")
            && long(Int32(CCURLOPT_PATH_AS_IS), 1)
            && long(Int32(CCURLOPT_FOLLOWLOCATION), 0)
            // An https_proxy's `CONNECT` answer is not the origin's head: kept from the header
            // callback, it would start the idle timeout before the origin answers.
            && long(Int32(CCURLOPT_SUPPRESS_CONNECT_HEADERS), 1)
            && long(Int32(CCURLOPT_TCP_NODELAY), 1)
            && long(Int32(CCURLOPT_TIMEOUT_MS), transfer.timeoutMilliseconds)
            && long(Int32(CCURLOPT_CONNECTTIMEOUT_MS), min(connectTimeoutMilliseconds, transfer.timeoutMilliseconds))
            && ccurl_easy_setopt_callback(api, easy, Int32(CCURLOPT_WRITEFUNCTION), CurlTransfer.writeCallback) == CCURLE_OK
            && pointer(Int32(CCURLOPT_WRITEDATA), context)
            && ccurl_easy_setopt_callback(api, easy, Int32(CCURLOPT_HEADERFUNCTION), CurlTransfer.headerCallback) == CCURLE_OK
            && pointer(Int32(CCURLOPT_HEADERDATA), context)
            && pointer(Int32(CCURLOPT_PRIVATE), context)
        if request.decodesContentCoding {
            // Enables libcurl's decoders; its own Accept-Encoding line is suppressed in headerList.
            configured = configured && string(Int32(CCURLOPT_ACCEPT_ENCODING), "")
        } else {
            // No decoder runs: the body is the bytes as sent, chunked framing removed. Without this,
            // libcurl before 8 decodes a transfer coding other than chunked that nobody asked for (no
            // TE is ever sent) and fails an unknown one (`Transfer-Encoding: foo`, curl error 61); with
            // it, such a body is read until the connection closes (RFC 9112 §6.3 rule 4), as libcurl 8 does.
            configured = configured && long(Int32(CCURLOPT_HTTP_CONTENT_DECODING), 0)
        }
        var sendsBody = false
        switch request.method {
        case "GET":
            configured = configured && long(Int32(CCURLOPT_HTTPGET), 1)
        case "HEAD":
            configured = configured && long(Int32(CCURLOPT_NOBODY), 1)
        default:
            guard request.method.rawValue.utf8.allSatisfy({ Self.isTokenByte($0) }), !request.method.rawValue.isEmpty else {
                return OriginError(.invalidRequest, "not a valid method")
            }
            sendsBody = !request.body.isEmpty || [.post, .put, .patch].contains(request.method)
            if sendsBody {
                let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, request.body.count), alignment: 1)
                request.body.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: $0.count) }
                transfer.postFields = copy
                configured = configured
                    && ccurl_easy_setopt_off_t(api, easy, Int32(CCURLOPT_POSTFIELDSIZE_LARGE), Int64(request.body.count)) == CCURLE_OK
                    && pointer(Int32(CCURLOPT_POSTFIELDS), copy)
            }
            configured = configured && string(Int32(CCURLOPT_CUSTOMREQUEST), request.method.rawValue)
        }
        transfer.headerList = headerList(for: request, sendsBody: sendsBody)
        configured = configured && pointer(Int32(CCURLOPT_HTTPHEADER), UnsafeRawPointer(transfer.headerList))
        return configured ? nil : OriginError(.invalidRequest, "libcurl refused an option")
    }

    /// The request's header lines, plus: `User-Agent` when absent; an empty `Accept:` and
    /// `Expect:` (no curl defaults); an empty `Content-Type:` for a body without one (no
    /// `application/x-www-form-urlencoded`); an empty `Accept-Encoding:` when decoding is on and
    /// the request has none (libcurl's decoders are enabled, its advertised codings are not sent). Fields whose name or value contains CR, LF or NUL
    /// are dropped; an empty value is sent as `Name;` (curl's syntax for an empty field).
    func headerList(for request: OriginRequest, sendsBody: Bool) -> OpaquePointer? {
        let api = library.api
        var list: OpaquePointer?
        func append(_ line: String) {
            // Field values are octets: a value read with obs-text goes back byte for byte (CurlFieldOctets).
            let longer = line.utf8.contains(where: { $0 >= 0x80 })
                ? CurlFieldOctets.cString(line).withUnsafeBufferPointer { api.pointee.slist_append(list, $0.baseAddress) }
                : line.withCString { api.pointee.slist_append(list, $0) }
            if let longer { list = longer }
        }
        var hasAccept = false, hasUserAgent = false, hasExpect = false, hasContentType = false, hasAcceptEncoding = false
        for field in request.fields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy({ Self.isTokenByte($0) }),
                  !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else { continue }
            if HTTPFields.namesEqual(field.name, "Accept") { hasAccept = true }
            if HTTPFields.namesEqual(field.name, "User-Agent") { hasUserAgent = true }
            if HTTPFields.namesEqual(field.name, "Expect") { hasExpect = true }
            if HTTPFields.namesEqual(field.name, "Content-Type") { hasContentType = true }
            if HTTPFields.namesEqual(field.name, "Accept-Encoding") { hasAcceptEncoding = true }
            append(field.value.isEmpty ? field.name + ";" : field.name + ": " + field.value)
        }
        if !hasUserAgent { append(userAgentHeaderLine) }
        if !hasAccept { append("Accept:") }
        if !hasExpect { append("Expect:") }
        if sendsBody, !hasContentType { append("Content-Type:") }
        if request.decodesContentCoding, !hasAcceptEncoding { append("Accept-Encoding:") }
        return list
    }

    /// RFC 9110 §5.6.2 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
