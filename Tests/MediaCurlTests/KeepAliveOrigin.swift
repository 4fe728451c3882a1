import Foundation
import Glibc
import MediaTestSupport
import Synchronization

/// A keep-alive HTTP/1.1 origin for transport tests, on 127.0.0.1 or ::1 (an ephemeral port): one
/// thread per connection, any number of requests per connection (heads and `Content-Length`
/// bodies), scripted by a handler that writes raw bytes and says whether to keep the
/// connection open. Counts connections and records every request head and body.
final class KeepAliveOrigin: Sendable {
    struct Request: Sendable {
        let head: String
        let body: [UInt8]
        /// The connection's number (1-based, in accept order).
        let connection: Int

        var method: String { String(head.split(separator: " ", maxSplits: 1).first ?? "") }
        var target: String { String(head.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") }
    }

    let port: UInt16
    let host: String
    private let listener: Int32
    private let received = Mutex<[Request]>([])
    private let accepted = Atomic<Int>(0)
    private let closedByPeer = Atomic<Int>(0)

    /// Whether ::1 can be bound here (a sandbox may have no IPv6 loopback).
    static let hasIPv6Loopback: Bool = {
        guard let origin = try? KeepAliveOrigin(host: "::1", handler: { _, _ in false }) else { return false }
        origin.stop()
        return true
    }()

    /// Starts listening on `host` (`127.0.0.1` or `::1`); `handler` answers each request and
    /// returns whether to read another request from the same connection.
    init(host: String = "127.0.0.1",
         handler: @escaping @Sendable (Request, ScriptedOrigin.Connection) -> Bool) throws {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var boundPort: UInt16 = 0
        var ok = false
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
                && listen(fd, 256) == 0
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            boundPort = UInt16(bigEndian: address.sin6_port)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(host)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
                && listen(fd, 256) == 0
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            boundPort = UInt16(bigEndian: address.sin_port)
        }
        guard ok else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = fd
        port = boundPort
        self.host = host
        let origin = self
        Thread.detachNewThread { origin.acceptLoop(handler) }
    }

    var baseURL: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    /// The requests received so far.
    var requests: [Request] { received.withLock { $0 } }

    /// The number of accepted connections.
    var connectionCount: Int { accepted.load(ordering: .acquiring) }

    /// The number of connections the client closed (seen as end of file while waiting for a request).
    var peerClosedCount: Int { closedByPeer.load(ordering: .acquiring) }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop(_ handler: @escaping @Sendable (Request, ScriptedOrigin.Connection) -> Bool) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let number = accepted.add(1, ordering: .acquiringAndReleasing).newValue
            let origin = self
            Thread.detachNewThread {
                defer { close(client) }
                var pending: [UInt8] = []
                while true {
                    guard let request = Self.readRequest(client, pending: &pending, connection: number) else {
                        origin.closedByPeer.add(1, ordering: .acquiringAndReleasing)
                        return
                    }
                    origin.received.withLock { $0.append(request) }
                    if !handler(request, ScriptedOrigin.Connection(fd: client)) { return }
                }
            }
        }
    }

    private static func readRequest(_ fd: Int32, pending: inout [UInt8], connection: Int) -> Request? {
        let terminator = Array("\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 8192)
        func fill() -> Bool {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return false }
            pending += buffer[0..<count]
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            if let range = pending.firstRange(of: terminator) { headEnd = range.upperBound; break }
            if pending.count > 65536 || !fill() { return nil }
        }
        let head = String(decoding: pending[0..<headEnd!], as: UTF8.self)
        var length = 0
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        while pending.count < headEnd! + length { if !fill() { return nil } }
        let body = Array(pending[headEnd!..<(headEnd! + length)])
        pending.removeFirst(headEnd! + length)
        return Request(head: head, body: body, connection: connection)
    }
}
