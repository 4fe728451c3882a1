extension HTTPConnection {
    /// At most this many bytes of interim responses wait for a client that does not read; later ones are dropped whole.
    static let maxInterimBacklogBytes = 65_536

    /// Writes an interim response (RFC 9110 §15.2) of the async exchange `exchange` (on the loop thread,
    /// from the mailbox). Dropped when that exchange is over (answered: ``servedRequests`` moved on, or
    /// the connection closed): nothing reaches a later request. What the socket does not take waits in
    /// ``interimBacklog`` (`EPOLLOUT` while the handler runs) and goes out before the final response.
    func writeInterim(_ bytes: [UInt8], exchange: Int) {
        guard phase == .awaitingHandler, exchange == servedRequests else { return }
        if !interimBacklog.isEmpty {
            guard interimBacklog.count + bytes.count <= Self.maxInterimBacklogBytes else { return }
            interimBacklog += bytes
            return
        }
        let sent = Self.send(fd, bytes, from: 0, [], from: 0, to: 0)
        if sent < 0 {
            close()
            return
        }
        guard sent < bytes.count else { return }
        interimBacklog = Array(bytes[sent...])
        setInterest(Epoll.writable | Epoll.readHangUp)
    }

    /// `EPOLLOUT` while the handler runs: continues the interim backlog; interest goes back to the peer's hang-up
    /// once sent.
    func resumeInterim() {
        guard !interimBacklog.isEmpty else {
            setInterest(Epoll.readHangUp)
            return
        }
        let sent = Self.send(fd, interimBacklog, from: 0, [], from: 0, to: 0)
        if sent < 0 {
            close()
            return
        }
        interimBacklog.removeFirst(sent)
        if interimBacklog.isEmpty { setInterest(Epoll.readHangUp) }
    }
}
