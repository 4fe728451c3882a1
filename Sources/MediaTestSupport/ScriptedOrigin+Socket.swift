import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension ScriptedOrigin {
    /// A scripted origin on a real socket: 127.0.0.1, an ephemeral port, answers written byte for byte by a
    /// handler (for what a real server cannot be made to send: a bare `304`, an interim `103`, an unknown
    /// status or transfer coding, a connection cut early). One thread per connection, one request per
    /// connection; the connection is closed after the handler returns, so a response without
    /// `Content-Length` is delimited by the close.
    public final class Socket: Sendable {
        /// Answers one request: the request, its 0-based index in arrival order, the connection.
        public typealias Handler = @Sendable (Request, Int, Connection) -> Void

        /// The port listened on.
        public let port: Int
        private let listener: Int32
        private let received = Mutex<[Request]>([])
        private let active = Mutex<(count: Int, idleWaiters: [CheckedContinuation<Void, Never>])>((0, []))
        private let connections = Atomic<Int>(0)

        /// Starts listening; `handler` answers each request.
        /// - Throws: `POSIXError` when no socket can be bound on 127.0.0.1.
        public init(handler: @escaping Handler) throws {
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

        /// Starts listening; `handler` answers each request (without its index).
        public convenience init(handler: @escaping @Sendable (Request, Connection) -> Void) throws {
            try self.init { request, _, connection in handler(request, connection) }
        }

        /// A port with nothing listening on it (bound, then closed).
        public static func closedPort() throws -> Int {
            let origin = try Socket { _, _ in }
            let port = origin.port
            origin.stop()
            return port
        }

        /// `http://127.0.0.1:<port>`.
        public var baseURL: String { "http://127.0.0.1:\(port)" }

        /// The requests received so far, in arrival order.
        public var requests: [Request] { received.withLock { $0 } }

        /// The number of accepted connections.
        public var connectionCount: Int { connections.load(ordering: .acquiring) }

        /// Stops accepting connections (handlers already running finish).
        public func stop() {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }

        /// Suspends until no connection handler runs; always true (the caller's time limit bounds the wait).
        public func waitUntilIdle() async -> Bool {
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

        private func acceptLoop(_ handler: @escaping Handler) {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                connections.add(1, ordering: .acquiringAndReleasing)
                active.withLock { $0.count += 1 }
                let origin = self
                Thread.detachNewThread {
                    defer {
                        close(client)
                        origin.connectionEnded()
                    }
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
}
