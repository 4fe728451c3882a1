import Glibc
import MediaCore

extension HTTPServer {
    /// The acceptor thread: waits on the listening socket and the wake pipe, enforces the
    /// connection cap and hands each admitted socket (non-blocking, `TCP_NODELAY`) to the next
    /// event loop, round-robin.
    func acceptLoop(listenFD: Int32, wakeFD: Int32, loops: [EventLoop]) {
        defer { close(listenFD) }
        var entries = [
            pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        var nextLoop = 0
        while !isStopping {
            let ready = poll(&entries, 2, -1)
            if ready < 0 && errno != EINTR { break }
            if isStopping || entries[1].revents != 0 { break }
            var peer = sockaddr_storage()
            var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listenFD, $0, &peerLength)
                }
            }
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    _ = poll(nil, 0, 10)  // out of descriptors: back off instead of spinning
                }
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            Socket.setNoDelay(fd)
            let peerText = Socket.describe(peer)
            let admission = admit(fd, peer: peerText.address)
            switch admission {
            case .full:
                counters.refused.add(1, ordering: .relaxed)
                refuse(fd, detail: "too many connections")
                shedIdle(loops)  // idle keep-alive connections give way to the next one
                continue
            case .peerFull:
                counters.refused.add(1, ordering: .relaxed)
                counters.refusedPerPeer.add(1, ordering: .relaxed)
                refuse(fd, detail: "too many connections from one address")
                continue
            case .admitted(let nearCap):
                // Near the cap, idle connections make room before anyone is refused (idle-first, as nginx reuses
                // idle keep-alive connections when it runs short).
                if nearCap { shedIdle(loops) }
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            counters.accepted.add(1, ordering: .relaxed)
            loops[nextLoop].post(.accepted(fd: fd, remoteAddress: peerText.address + ":" + String(peerText.port),
                                           peer: peerText.address))
            nextLoop = (nextLoop + 1) % loops.count
        }
    }

    enum Admission {
        /// Admitted; `nearCap`: open connections reached ``shedThreshold``.
        case admitted(nearCap: Bool)
        /// ``Configuration/maxConnections`` are open.
        case full
        /// ``Configuration/maxConnectionsPerPeer`` are open from this address.
        case peerFull
    }

    /// Connections an address may already hold and still be admitted into the last eighth of the cap.
    static let reserveHolding = 8

    /// Idle keep-alive connections the loops close together, per connection admitted near the cap or refused at it.
    static let shedBatch = 16

    /// The open-connection count from which idle connections are shed: ⅞ of ``Configuration/maxConnections``; below a
    /// cap of 8 there is no margin, and idle connections are shed only when one is refused.
    var shedThreshold: Int {
        configuration.maxConnections >= 8 ? configuration.maxConnections - configuration.maxConnections / 8 : Int.max
    }

    /// Books `fd` from `peer` against the caps (``Configuration/maxConnections``, ``Configuration/maxConnectionsPerPeer``
    /// unless `peer` is one of ``Configuration/uncappedPeers``).
    func admit(_ fd: Int32, peer: String) -> Admission {
        state.withLock { current -> Admission in
            guard current.connections.count < configuration.maxConnections else { return .full }
            let count = current.peerCounts[peer] ?? 0
            let uncapped = configuration.uncappedPeers.contains(peer)
            if count >= configuration.maxConnectionsPerPeer && !uncapped { return .peerFull }
            // The last eighth of the cap is kept for addresses that hold few connections: a handful of addresses at
            // their per-address cap cannot take every slot from everyone else.
            if current.connections.count >= shedThreshold && count >= Self.reserveHolding && !uncapped { return .full }
            current.connections[fd] = peer
            current.peerCounts[peer] = count + 1
            return .admitted(nearCap: current.connections.count >= shedThreshold)
        }
    }

    /// Asks every loop to close its share of ``shedBatch`` idle keep-alive connections.
    func shedIdle(_ loops: [EventLoop]) {
        let share = max(1, Self.shedBatch / loops.count)
        for loop in loops { loop.post(.shedIdle(share)) }
    }

    /// Answers `503` with `Connection: close` without blocking and closes `fd`.
    func refuse(_ fd: Int32, detail: String) {
        let response = HTTPServerResponse.problem(status: 503, detail: detail)
        let date = configuration.addsDateField ? HTTPDate.format(WallClock.nowSeconds()) : nil
        let bytes = HTTPResponseSerializer.serialize(response, headRequest: false, connection: .close, date: date)
        bytes.withUnsafeBytes { _ = send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(fd, Int32(SHUT_WR))
        // Drain what the client already sent so close() does not turn into a reset that discards the 503.
        var scratch = [UInt8](repeating: 0, count: 4_096)
        while recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        close(fd)
    }
}
