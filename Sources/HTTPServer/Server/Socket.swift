import MediaCore
import Glibc

/// Thin POSIX socket helpers for the server (IPv4 and IPv6, no name resolution).
enum Socket {
    /// Creates, binds and listens; returns the descriptor and the bound port.
    static func listen(host: String, port: Int, backlog: Int) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        guard (0...65_535).contains(port) else {
            throw HTTPServerError(code: .invalidAddress, message: "port \(port) is outside 0...65535")
        }
        let family = host.contains(":") ? AF_INET6 : AF_INET
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        var parsed = in6_addr()  // inet_pton is strict where getaddrinfo takes inet_aton's forms (`127.1`, `0x7f.1`)
        guard inet_pton(family, host, &parsed) == 1, getaddrinfo(host, String(port), &hints, &found) == 0,
              let address = found?.pointee else {
            throw HTTPServerError(code: .invalidAddress,
                                  message: "\(host) is not a numeric \(family == AF_INET6 ? "IPv6" : "IPv4") address")
        }
        defer { freeaddrinfo(found) }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure(.socketFailed, "socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = bind(fd, address.ai_addr, address.ai_addrlen)
        guard bound == 0 else {
            let error = failure(.bindFailed, "bind \(host):\(port)")
            close(fd)
            throw error
        }
        guard Glibc.listen(fd, Int32(clamping: backlog)) == 0 else {
            let error = failure(.listenFailed, "listen \(host):\(port)")
            close(fd)
            throw error
        }
        var boundAddress = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &boundLength) }
        }
        return (fd, describe(boundAddress).port)
    }

    static func failure(_ code: HTTPServerError.Code, _ what: String) -> HTTPServerError {
        let number = errno
        return HTTPServerError(code: code, message: "\(what): \(SystemErrorText.describe(number))", errno: number)
    }

    /// The address text and port of an IPv4/IPv6 socket address.
    static func describe(_ storage: sockaddr_storage) -> (address: String, port: Int) {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                    return (cText(text), Int(UInt16(bigEndian: address.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return ("[" + cText(text) + "]", Int(UInt16(bigEndian: address.pointee.sin6_port)))
                }
            }
        default:
            return ("", 0)
        }
    }

    static func cText(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends all of `bytes` within `timeoutMilliseconds`, polling when the socket buffer is full.
    /// - Returns: `false` on error, peer reset or timeout.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int) -> Bool {
        let deadline = MonotonicClock.nowMilliseconds() + timeoutMilliseconds
        return bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                if sent > 0 {
                    offset += sent
                    continue
                }
                if sent < 0 && errno == EINTR { continue }
                guard sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return false }
                let remaining = deadline - MonotonicClock.nowMilliseconds()
                guard remaining > 0 else { return false }
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&entry, 1, Int32(clamping: remaining))
                if ready == 0 { return false }
                if ready < 0 && errno != EINTR { return false }
            }
            return true
        }
    }

    /// Half-closes `fd` and discards what the client still sends (up to `maxBytes`, for at most
    /// `timeoutMilliseconds`), so the final close does not reset the connection and destroy the
    /// response in the client's receive buffer (RFC 9112 §9.6). The caller closes `fd` afterwards.
    static func lingeringClose(_ fd: Int32, timeoutMilliseconds: Int = 500, maxBytes: Int = 1 << 20) {
        shutdown(fd, Int32(SHUT_WR))
        let deadline = MonotonicClock.nowMilliseconds() + timeoutMilliseconds
        var discarded = 0
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 16) { sink in
            while discarded < maxBytes {
                let remaining = deadline - MonotonicClock.nowMilliseconds()
                if remaining <= 0 { return }
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, Int32(clamping: remaining)) <= 0 { return }
                let count = recv(fd, sink.baseAddress, sink.count, Int32(MSG_DONTWAIT))
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
                if count > 0 { discarded += count }
            }
        }
    }

    /// A pipe whose read end becomes readable once something is written: a level-triggered event.
    static func makePipe() throws(HTTPServerError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw failure(.socketFailed, "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    /// Writes one byte to a pipe (async-signal-safe).
    static func signal(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
}
