import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 client over real loopback sockets: one request per connection (`Connection: close`),
/// plus raw byte access for malformed requests and slow clients.
/// Every call blocks (use it off the cooperative pool, or in tests that may block).
public enum RawHTTP {
    /// A connect, send or read error, or an incomplete response, described for the test log.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sends `method target` with `headers` (plus `Host` and `Connection: close`) and reads the response.
    /// - Throws: `RawHTTP.Failure` on connect/read errors or when no complete response arrives in `timeoutSeconds`.
    public static func request(
        port: Int, _ method: String = "GET", _ target: String, headers: [(String, String)] = [],
        timeoutSeconds: Double = 20
    ) throws -> HTTPResponse {
        let fd = try sendHead(port: port, method, target, headers: headers, version: "HTTP/1.1", timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        return try readResponse(fd, isHead: method == "HEAD")
    }

    /// Connects and writes the request head of `method target` with `headers` (plus `Host` and `Connection: close`).
    private static func sendHead(port: Int, _ method: String, _ target: String, headers: [(String, String)], version: String,
                             timeoutSeconds: Double) throws -> Int32 {
        var head = "\(method) \(target) \(version)\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        do {
            try write(fd, Array(head.utf8))
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// `GET target` with an optional bearer token.
    public static func get(port: Int, _ target: String, token: String? = nil, headers: [(String, String)] = []) throws -> HTTPResponse {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        return try request(port: port, "GET", target, headers: all)
    }

    /// Sends `bytes` as is on a new connection and reads one response.
    public static func send(port: Int, raw bytes: [UInt8], timeoutSeconds: Double = 20) throws -> HTTPResponse {
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        try write(fd, bytes)
        return try readResponse(fd, isHead: false)
    }

    /// Opens a loopback connection with send/receive timeouts.
    /// - Parameter source: the local address to connect from (any of 127.0.0.0/8 is loopback on Linux), e.g.
    ///   `"127.0.0.2"` to be another client address; `nil`: the system's choice (127.0.0.1).
    public static func connect(port: Int, timeoutSeconds: Double = 20, source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw Failure(description: "bind \(source): errno \(code)")
            }
        }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect 127.0.0.1:\(port): errno \(code)")
        }
        return fd
    }

    /// Writes all of `bytes` (MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE).
    public static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Like ``request(port:_:_:headers:timeoutSeconds:)``, also returning the interim (1xx) responses read
    /// before the final one, in order (RFC 9110 §15.2), each with its status and fields and no body.
    public static func requestWithInterim(
        port: Int, _ method: String = "GET", _ target: String, headers: [(String, String)] = [],
        version: String = "HTTP/1.1", timeoutSeconds: Double = 20
    ) throws -> (interim: [HTTPResponse], final: HTTPResponse) {
        let fd = try sendHead(port: port, method, target, headers: headers, version: version, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        return try readResponses(fd, isHead: method == "HEAD")
    }

    /// Reads the interim (1xx) responses and then the final response of one request.
    public static func readResponses(_ fd: Int32, isHead: Bool) throws -> (interim: [HTTPResponse], final: HTTPResponse) {
        var buffer: [UInt8] = []
        var interim: [HTTPResponse] = []
        while true {
            let response = try readResponse(fd, isHead: isHead, buffer: &buffer)
            guard (100..<200).contains(response.status), response.status != 101 else { return (interim, response) }
            interim.append(response)
        }
    }

    /// Reads one response: the head, then `Content-Length` bytes, chunks, or everything until close.
    /// A 1xx response is returned after its head (it has no body).
    public static func readResponse(_ fd: Int32, isHead: Bool) throws -> HTTPResponse {
        var buffer: [UInt8] = []
        return try readResponse(fd, isHead: isHead, buffer: &buffer)
    }

    /// ``readResponse(_:isHead:)`` over `buffer`, which holds bytes already received and keeps those
    /// received after the response (the next response of the connection).
    public static func readResponse(_ fd: Int32, isHead: Bool, buffer: inout [UInt8]) throws -> HTTPResponse {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func fill() throws -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == ECONNRESET { return false }
                throw Failure(description: "recv: errno \(errno) after \(buffer.count) bytes")
            }
            if count == 0 { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if let range = firstRange(of: separator, in: buffer) { headEnd = range; break }
            guard try fill() else { throw Failure(description: "connection closed before a complete response head (\(buffer.count) bytes)") }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line: \(statusLine)") }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = HTTPResponse(status: status, fields: fields, body: [])
        let bodyStart = headEnd! + 4
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) {
            buffer.removeFirst(bodyStart)
            return response
        }
        if let lengthText = response.header("Content-Length"), let length = Int(lengthText) {
            while buffer.count - bodyStart < length {
                guard try fill() else { throw Failure(description: "connection closed after \(buffer.count - bodyStart) of \(length) body bytes") }
            }
            response.body = Array(buffer[bodyStart..<(bodyStart + length)])
            buffer.removeFirst(bodyStart + length)
        } else {
            while try fill() {}
            let raw = Array(buffer[bodyStart...])
            response.body = response.header("Transfer-Encoding")?.lowercased() == "chunked" ? dechunk(raw) : raw
            buffer.removeAll()
        }
        return response
    }

    /// The index where `needle` first occurs in `haystack`.
    public static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    private static func dechunk(_ raw: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while let lineEnd = firstRange(of: [13, 10], in: Array(raw[index...])) {
            let sizeText = String(decoding: raw[index..<(index + lineEnd)], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = index + lineEnd + 2
            guard start + size <= raw.count else { break }
            body += raw[start..<(start + size)]
            index = start + size + 2
            guard index < raw.count else { break }
        }
        return body
    }
}
