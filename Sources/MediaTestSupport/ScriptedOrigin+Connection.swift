import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ScriptedOrigin {
    /// An accepted connection a socket handler answers on, with raw writes (`MSG_NOSIGNAL`: a gone peer is a
    /// `false` result, not `SIGPIPE`).
    public struct Connection: Sendable {
        /// The connected socket.
        public let fd: Int32

        public init(fd: Int32) { self.fd = fd }

        /// Writes all of `bytes`; false when the peer is gone.
        @discardableResult
        public func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }

        /// Writes `text` as UTF-8; false when the peer is gone.
        @discardableResult
        public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

        /// Writes a complete response: the status line, `fields` in order, `Content-Length` (unless
        /// `contentLength` is false or a field already sets it) and `body`. Default reason: `Scripted`.
        @discardableResult
        public func respond(_ status: Int, reason: String = "Scripted", _ fields: [(String, String)] = [],
                            body: [UInt8] = [], contentLength: Bool = true) -> Bool {
            var head = "HTTP/1.1 \(status) \(reason)\r\n"
            for (name, value) in fields { head += "\(name): \(value)\r\n" }
            if contentLength, !fields.contains(where: { $0.0.lowercased() == "content-length" }) {
                head += "Content-Length: \(body.count)\r\n"
            }
            head += "\r\n"
            return write(Array(head.utf8) + body)
        }

        /// ``respond(_:reason:_:body:contentLength:)`` with `text` as the UTF-8 body.
        @discardableResult
        public func respond(_ status: Int, reason: String = "Scripted", _ fields: [(String, String)] = [], text: String) -> Bool {
            respond(status, reason: reason, fields, body: Array(text.utf8))
        }

        /// Blocks until the peer closes the connection (true) or 10 s pass without a byte (false); what the
        /// peer sends meanwhile is discarded.
        @discardableResult
        public func waitForPeerClose() -> Bool {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 512)
            while poll(&pfd, 1, 10_000) > 0 {
                if recv(fd, &buffer, buffer.count, 0) <= 0 { return true }
            }
            return false
        }
    }
}
