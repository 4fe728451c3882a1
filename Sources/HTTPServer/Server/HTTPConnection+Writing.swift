import Glibc

extension HTTPConnection {
    /// Serializes `response`'s head into the loop's reusable buffer and sends head and body with one
    /// gathered `sendmsg` (the body is never copied). What the socket does not take is kept and
    /// resumed on `EPOLLOUT` within ``HTTPServer/Configuration/writeTimeout``.
    /// - Parameter counts: whether a failed write counts in ``HTTPServer/Statistics/timeouts``.
    func startWrite(
        _ response: HTTPServerResponse, headRequest: Bool, connection: HTTPResponseSerializer.ConnectionField,
        closing: Bool, counts: Bool
    ) {
        loop.headBuffer.removeAll(keepingCapacity: true)
        let sendsBody = HTTPResponseSerializer.serializeHead(
            response, headRequest: headRequest, connection: connection, date: loop.currentDate(),
            into: &loop.headBuffer)
        writeFailureCounts = counts
        closeAfterWrite = closing
        // Held until the body is sent (a partial write keeps it with the pending body; see afterSend).
        pendingBodyOwner = sendsBody ? response.content.owner : nil
        // The body is sent from its storage (a ranged body from its part of the shared buffer: no copy).
        let body = sendsBody ? response.content.storage : []
        let range = sendsBody ? response.content.span : 0..<0
        if !interimBacklog.isEmpty {
            // Interim responses the socket has not taken yet go first (rare: only after a partial interim write).
            let head = interimBacklog + loop.headBuffer
            interimBacklog = []
            let sent = Self.send(fd, head, from: 0, body, from: range.lowerBound, to: range.upperBound)
            afterSend(sent, head: head, headOffset: 0, body: body, bodyOffset: range.lowerBound, bodyEnd: range.upperBound,
                      copyHead: false)
            return
        }
        let sent = Self.send(fd, loop.headBuffer, from: 0, body, from: range.lowerBound, to: range.upperBound)
        afterSend(sent, head: loop.headBuffer, headOffset: 0, body: body, bodyOffset: range.lowerBound,
                  bodyEnd: range.upperBound, copyHead: true)
    }

    /// Sends raw bytes (the `100 Continue` interim response).
    func startWrite(head: [UInt8], closing: Bool) {
        writeFailureCounts = false
        closeAfterWrite = closing
        let sent = Self.send(fd, head, from: 0, [], from: 0, to: 0)
        afterSend(sent, head: head, headOffset: 0, body: [], bodyOffset: 0, bodyEnd: 0, copyHead: false)
    }

    /// Continues a partial write on `EPOLLOUT`.
    func resumeWrite() {
        let head = pendingHead, body = pendingBody
        let sent = Self.send(fd, head, from: pendingHeadOffset, body, from: pendingBodyOffset, to: pendingBodyEnd)
        afterSend(sent, head: head, headOffset: pendingHeadOffset, body: body, bodyOffset: pendingBodyOffset,
                  bodyEnd: pendingBodyEnd, copyHead: false)
        if phase == .reading { process() }
    }

    /// Books `sent` bytes: done (back to reading, or lingering close), partial (wait for
    /// `EPOLLOUT`), or failed (close).
    private func afterSend(
        _ sent: Int, head: [UInt8], headOffset: Int, body: [UInt8], bodyOffset: Int, bodyEnd: Int, copyHead: Bool
    ) {
        if sent < 0 {
            if writeFailureCounts { loop.server.counters.timeouts.add(1, ordering: .relaxed) }
            close()
            return
        }
        let headLeft = head.count - headOffset
        let total = headLeft + bodyEnd - bodyOffset
        if sent == total {
            let wasWriting = phase == .writing
            pendingHead = []
            pendingBody = []
            pendingBodyOwner = nil
            if closeAfterWrite {
                startLingering()
                return
            }
            phase = .reading
            if wasWriting { setDeadline(Int.max) }
            return
        }
        // Partial: keep the rest (the head is copied out of the loop's shared buffer only now).
        if sent < headLeft {
            if copyHead {
                pendingHead = Array(head[(headOffset + sent)...])
                pendingHeadOffset = 0
            } else {
                pendingHead = head
                pendingHeadOffset = headOffset + sent
            }
            pendingBody = body
            pendingBodyOffset = bodyOffset
        } else {
            pendingHead = []
            pendingHeadOffset = 0
            pendingBody = body
            pendingBodyOffset = bodyOffset + (sent - headLeft)
        }
        pendingBodyEnd = bodyEnd
        // The response must leave at the minimum rate since its first partial write, after writeTimeout of grace.
        if phase != .writing {
            phase = .writing
            writeStarted = MonotonicClock.nowMilliseconds()
            writeSent = 0
        }
        writeSent += sent
        setDeadline(writeDeadline())
        setInterest(Epoll.writable)
    }

    /// When the response being written must have been delivered: its first partial write, plus `writeTimeout` of
    /// grace, plus what has been delivered so far at the minimum rate. Only what left the socket's send queue counts
    /// (`TIOCOUTQ`: bytes not yet acknowledged by the peer), so a reader that stops earns nothing from what the
    /// kernel holds, and one that keeps reading from a full queue earns its time even though no `EPOLLOUT` comes.
    func writeDeadline() -> Int {
        var queued: Int32 = 0
        let delivered = ioctl(fd, UInt(TIOCOUTQ), &queued) == 0 ? max(0, writeSent - Int(queued)) : writeSent
        return writeStarted + loop.writeMilliseconds + loop.milliseconds(atMinimumRate: delivered)
    }

    /// One non-blocking gathered send of `head[headOffset...]` and `body[bodyOffset..<bodyEnd]`.
    /// - Returns: bytes sent (0 when the socket buffer is full), or -1 on a hard error.
    static func send(_ fd: Int32, _ head: [UInt8], from headOffset: Int, _ body: [UInt8], from bodyOffset: Int,
                     to bodyEnd: Int) -> Int {
        head.withUnsafeBytes { headBytes in
            body.withUnsafeBytes { bodyBytes in
                var vectors = (
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: headBytes.baseAddress.map { $0 + headOffset }),
                        iov_len: headBytes.count - headOffset),
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress.map { $0 + bodyOffset }),
                        iov_len: bodyEnd - bodyOffset)
                )
                let vectorCount = bodyEnd - bodyOffset > 0 ? 2 : 1
                return withUnsafeMutablePointer(to: &vectors) { pointer in
                    pointer.withMemoryRebound(to: iovec.self, capacity: 2) { iov -> Int in
                        var message = msghdr()
                        // Skip an empty head vector (fully sent earlier).
                        if headBytes.count - headOffset == 0 {
                            message.msg_iov = iov + 1
                            message.msg_iovlen = 1
                        } else {
                            message.msg_iov = iov
                            message.msg_iovlen = vectorCount
                        }
                        while true {
                            let sent = sendmsg(fd, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                            if sent >= 0 { return sent }
                            if errno == EINTR { continue }
                            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1
                        }
                    }
                }
            }
        }
    }

    /// After a `Connection: close` answer: shut the write side and discard input until the peer
    /// closes, 1 MiB or 500 ms, so the close does not reset the connection and destroy the
    /// response in the client's receive buffer (RFC 9112 §9.6).
    func startLingering() {
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        lingerDiscarded = 0
        setDeadline(MonotonicClock.nowMilliseconds() + Self.lingerMilliseconds)
        setInterest(Epoll.readable)
    }

    func discardInput() {
        let buffer = loop.receiveBuffer
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
        if count <= 0 {
            close()
            return
        }
        lingerDiscarded += count
        if lingerDiscarded >= Self.lingerMaxBytes { close() }
    }
}
