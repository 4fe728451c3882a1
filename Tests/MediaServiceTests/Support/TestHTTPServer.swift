import Foundation
import Glibc
import Synchronization

/// A tiny HTTP/1.1 origin on 127.0.0.1 (an ephemeral port) for transport tests: one thread per
/// connection, one request per connection, scripted by a handler that writes raw bytes.
final class TestHTTPServer: Sendable {
    /// A received request head.
    struct Request: Sendable {
        let method: String
        let target: String
        let head: String

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

    /// A connection handed to the handler.
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

        /// Blocks until the peer closes the connection (true) or 10 s pass (false).
        @discardableResult
        func waitForPeerClose() -> Bool {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 512)
            while poll(&pfd, 1, 10_000) > 0 {
                if recv(fd, &buffer, buffer.count, 0) <= 0 { return true }
            }
            return false
        }
    }

    let port: UInt16
    private let listener: Int32
    private let received = Mutex<[Request]>([])
    private let active = Mutex<(count: Int, idleWaiters: [CheckedContinuation<Void, Never>])>((0, []))
    private let connections = Atomic<Int>(0)

    /// Starts listening; `handler` answers each request.
    init(handler: @escaping @Sendable (Request, Connection) -> Void) throws {
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
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let server = UnsafeTransfer(self)
        Thread.detachNewThread { server.value.acceptLoop(handler) }
    }

    /// A port with nothing listening on it (bound, then closed).
    static func closedPort() throws -> UInt16 {
        let server = try TestHTTPServer { _, _ in }
        let port = server.port
        server.stop()
        return port
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far.
    var requests: [Request] { received.withLock { $0 } }

    /// The number of accepted connections.
    var connectionCount: Int { connections.load(ordering: .acquiring) }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Suspends until no connection handler runs (the suite's time limit bounds it).
    func waitUntilIdle() async -> Bool {
        await withCheckedContinuation { continuation in
            let idle = active.withLock { state -> Bool in
                if state.count == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        return true
    }

    private func connectionEnded() {
        let waiters = active.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func acceptLoop(_ handler: @escaping @Sendable (Request, Connection) -> Void) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            connections.add(1, ordering: .acquiringAndReleasing)
            active.withLock { $0.count += 1 }
            let server = UnsafeTransfer(self)
            Thread.detachNewThread {
                defer {
                    close(client)
                    server.value.connectionEnded()
                }
                guard let request = Self.readHead(client) else { return }
                server.value.received.withLock { $0.append(request) }
                handler(request, Connection(fd: client))
            }
        }
    }

    private static func readHead(_ fd: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data += buffer[0..<count]
            if data.count > 65536 { return nil }
        }
        let head = String(decoding: data, as: UTF8.self)
        let requestLine = (head.split(separator: "\r\n").first ?? "").split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), head: head)
    }
}

/// Moves a Sendable reference into a detached thread closure.
struct UnsafeTransfer<Value: AnyObject & Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
