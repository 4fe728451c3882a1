import Glibc

/// One client connection, run on its own thread: the I/O shell around ``HTTPRequestParser``.
///
/// Loop: ask the parser for the next event; on `needMoreData` wait for bytes with the right
/// deadline (header timeout while a request is partly received or on a fresh connection, idle
/// timeout between keep-alive requests); on a request, answer it and keep going (pipelined
/// requests are already buffered and come out in order); on a parse error answer it and close.
struct HTTPConnection {
    let fd: Int32
    let remoteAddress: String
    let server: HTTPServer
    let wakeFD: Int32
    var parser: HTTPRequestParser
    /// Receive buffer; allocated (not zero-filled) so idle connections keep little resident memory.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    var servedRequests = 0
    /// Monotonic ms by which the current request head (or the next body bytes) must arrive.
    var requestDeadline: Int?
    var dateSecond = -1
    var dateText = ""

    init(fd: Int32, remoteAddress: String, server: HTTPServer, wakeFD: Int32) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.server = server
        self.wakeFD = wakeFD
        self.parser = HTTPRequestParser(configuration: server.configuration.parser)
    }

    mutating func run() {
        defer {
            scratch.deallocate()
            server.closeConnection(fd)
        }
        let configuration = server.configuration
        while true {
            switch parser.next() {
            case .request(var request):
                requestDeadline = nil
                request.remoteAddress = remoteAddress
                let response = server.respond(to: request)
                let closing = !request.keepAlive || response.closeConnection || server.isStopping
                let connection: HTTPResponseSerializer.ConnectionField =
                    closing ? .close : (request.version == .http1_0 ? .keepAlive : .omitted)
                let bytes = HTTPResponseSerializer.serialize(
                    response, headRequest: request.method == "HEAD", connection: connection, date: currentDate())
                servedRequests += 1
                server.counters.requests.add(1, ordering: .relaxed)
                guard Socket.sendAll(fd, bytes, timeoutMilliseconds: configuration.writeTimeout.pollMilliseconds) else {
                    server.counters.timeouts.add(1, ordering: .relaxed)
                    return
                }
                if closing {
                    Socket.lingeringClose(fd)
                    return
                }
            case .failure(let error):
                server.counters.parseErrors.add(1, ordering: .relaxed)
                respondAndClose(HTTPServerResponse.problem(status: error.status, detail: error.message))
                return
            case .needMoreData:
                let partial = parser.hasPartialRequest
                if parser.takeContinueRequest() {
                    let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    guard Socket.sendAll(fd, interim, timeoutMilliseconds: configuration.writeTimeout.pollMilliseconds)
                    else { return }
                }
                let timeout: Int
                if partial || servedRequests == 0 {
                    let now = MonotonicClock.nowMilliseconds()
                    if requestDeadline == nil || parser.isReadingBody {
                        requestDeadline = now + configuration.readHeaderTimeout.pollMilliseconds
                    }
                    timeout = max(0, (requestDeadline ?? now) - now)
                } else {
                    timeout = configuration.idleTimeout.pollMilliseconds
                }
                switch waitForInput(timeoutMilliseconds: timeout, watchStop: !partial) {
                case .readable:
                    break
                case .stopRequested:
                    return
                case .timedOut:
                    server.counters.timeouts.add(1, ordering: .relaxed)
                    if partial {
                        respondAndClose(HTTPServerResponse.problem(status: 408, detail: "request not received in time"))
                    }
                    return
                }
                let received = recv(fd, scratch.baseAddress, scratch.count, 0)
                if received < 0 && errno == EINTR { continue }
                guard received > 0 else { return }
                parser.append(UnsafeRawBufferPointer(rebasing: scratch[0..<received]))
            }
        }
    }

    enum WaitResult { case readable, timedOut, stopRequested }

    /// Polls the socket (and, when `watchStop`, the server's wake pipe) for up to the timeout.
    /// Input wins over a stop request so a request already sent is still answered.
    func waitForInput(timeoutMilliseconds: Int, watchStop: Bool) -> WaitResult {
        var entries = (
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        )
        var ready: Int32
        repeat {
            ready = withUnsafeMutablePointer(to: &entries) {
                $0.withMemoryRebound(to: pollfd.self, capacity: 2) {
                    poll($0, watchStop ? 2 : 1, Int32(clamping: timeoutMilliseconds))
                }
            }
        } while ready < 0 && errno == EINTR
        if ready < 0 { return .timedOut }
        if ready == 0 { return .timedOut }
        if entries.0.revents != 0 { return .readable }
        return .stopRequested
    }

    mutating func respondAndClose(_ response: HTTPServerResponse) {
        let bytes = HTTPResponseSerializer.serialize(
            response, headRequest: false, connection: .close, date: currentDate())
        if Socket.sendAll(fd, bytes, timeoutMilliseconds: server.configuration.writeTimeout.pollMilliseconds) {
            Socket.lingeringClose(fd)
        }
    }

    /// The `Date` value, formatted at most once per second per connection.
    mutating func currentDate() -> String? {
        guard server.configuration.addsDateField else { return nil }
        let now = HTTPDate.nowSeconds()
        if now != dateSecond {
            dateSecond = now
            dateText = HTTPDate.format(secondsSince1970: now)
        }
        return dateText
    }
}
