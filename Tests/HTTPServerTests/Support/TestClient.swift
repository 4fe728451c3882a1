import Glibc
import HTTPServer
import MediaCore

/// A response read off the wire by ``TestClient``.
struct WireResponse {
    var status: Int
    var reason: String
    var fields: [(name: String, value: String)]
    var body: [UInt8]

    func field(_ name: String) -> String? { HTTPFields(fields.map { ($0.name, $0.value) })[HTTPFieldName(name)] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A tiny blocking raw-socket HTTP client for tests; every read gives up after `timeoutSeconds`.
final class TestClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`, from `sourceAddress` (host order, e.g. `0x7F00_0002` for 127.0.0.2) when given.
    init(port: Int, timeoutSeconds: Int = 5, sourceAddress: UInt32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(message: "socket") }
        if let sourceAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = sourceAddress.bigEndian
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw TestClientError(message: "bind: errno \(errno)")
            }
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw TestClientError(message: "connect: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads more bytes; `false` on EOF, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response; `nil` when the connection closed (or timed out) first.
    func readResponse(headRequest: Bool = false) -> WireResponse? {
        var headEnd: Int?
        while true {
            if let range = firstRange(of: [13, 10, 13, 10]) {
                headEnd = range
                break
            }
            guard fill() else { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else { return nil }
        let fields = lines.map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingPrefix(" ").description)
        }
        var response = WireResponse(
            status: status, reason: parts.count > 2 ? String(parts[2]) : "", fields: fields, body: [])
        let length = headRequest || status == 204 || status == 304 ? 0 : Int(response.field("content-length") ?? "0") ?? 0
        while buffer.count < length {
            guard fill() else { return nil }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// The first `count` bytes received (read as needed, kept in the buffer); fewer when the connection
    /// closed or timed out first.
    func readHeadBytes(_ count: Int) -> [UInt8] {
        while buffer.count < count, fill() {}
        return Array(buffer.prefix(count))
    }

    /// Whether bytes (or the end of the stream) wait to be read now, without blocking.
    func hasPendingInput() -> Bool {
        guard buffer.isEmpty else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Whether the server closed the connection (EOF) with nothing more to read, within the timeout.
    func isClosedByPeer() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func firstRange(of pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }
}

struct TestClientError: Error {
    var message: String
}
