import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An origin on 127.0.0.1 (an ephemeral port) whose answers are scripted byte for byte: for the
/// responses nginx cannot produce (a bare `304`, an interim `103`, an unknown status, an unknown
/// transfer coding). One thread per connection, one request per connection; the connection is closed
/// after the handler returns, so a response without `Content-Length` is delimited by the close.
final class ScriptedOrigin: @unchecked Sendable {
    /// A received request: its head (request line and fields, as sent) and its method and target.
    struct Request: Sendable {
        let method: String
        let target: String
        let head: String

        /// The first value of `name` (case-insensitive), or `nil`.
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// The accepted connection the handler answers on.
    struct Connection: Sendable {
        let fd: Int32

        /// Writes all of `bytes`; false when the peer is gone.
        @discardableResult
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }

        @discardableResult
        func write(_ text: String) -> Bool { write(Array(text.utf8)) }

        /// Writes a complete response: the status line, `fields` in order, `Content-Length` (unless
        /// `contentLength` is false or a field already sets it) and `body`.
        @discardableResult
        func respond(_ status: Int, reason: String = "Scripted", _ fields: [(String, String)] = [],
                     body: [UInt8] = [], contentLength: Bool = true) -> Bool {
            var head = "HTTP/1.1 \(status) \(reason)\r\n"
            for (name, value) in fields { head += "\(name): \(value)\r\n" }
            if contentLength, !fields.contains(where: { $0.0.lowercased() == "content-length" }) {
                head += "Content-Length: \(body.count)\r\n"
            }
            head += "\r\n"
            return write(Array(head.utf8) + body)
        }

        @discardableResult
        func respond(_ status: Int, reason: String = "Scripted", _ fields: [(String, String)] = [], text: String) -> Bool {
            respond(status, reason: reason, fields, body: Array(text.utf8))
        }
    }

    let port: Int
    private let listener: Int32
    private let received = Mutex<[Request]>([])

    /// Starts listening; `handler` answers each request (it gets the request and its 0-based index).
    init(handler: @escaping @Sendable (Request, Int, Connection) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let origin = self
        Thread.detachNewThread { origin.acceptLoop(handler) }
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far, in arrival order.
    var requests: [Request] { received.withLock { $0 } }

    /// Stops accepting connections.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop(_ handler: @escaping @Sendable (Request, Int, Connection) -> Void) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let origin = self
            Thread.detachNewThread {
                defer { close(client) }
                guard let request = Self.readRequest(client) else { return }
                let index = origin.received.withLock { list -> Int in
                    list.append(request)
                    return list.count - 1
                }
                handler(request, index, Connection(fd: client))
            }
        }
    }

    /// Reads a request head and, when it has `Content-Length`, its body (discarded).
    private static func readRequest(_ fd: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data += buffer[0..<count]
            headEnd = RawHTTP.firstRange(of: separator, in: data)
            if data.count > 65_536 { return nil }
        }
        let head = String(decoding: data[0..<headEnd!], as: UTF8.self)
        let requestLine = (head.split(separator: "\r\n").first ?? "").split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        let request = Request(method: String(requestLine[0]), target: String(requestLine[1]), head: head)
        if let length = request.header("Content-Length").flatMap(Int.init) {
            var have = data.count - headEnd! - 4
            while have < length {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                have += count
            }
        }
        return request
    }
}
