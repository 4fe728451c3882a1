import Glibc

/// An incremental HTTP/1.1 request parser (RFC 9112): a pure state machine fed arbitrary byte chunks.
///
/// Feed bytes with ``append(_:)`` and call ``next()`` until it answers ``Action/needMoreData``.
/// Pipelined requests come out one per ``next()`` call, in order. After a ``Action/failure(_:)``
/// the parser stays failed: answer with the error's status and close the connection.
///
/// Accepted: `method SP request-target SP HTTP/1.0|HTTP/1.1`; CRLF line ends (a bare LF is refused,
/// ``HTTPParseError/Code/bareLineFeed``); empty lines before the request line are skipped; field values have OWS
/// trimmed; bodies by `Content-Length` or `Transfer-Encoding: chunked` with trailers.
/// Refused: see ``HTTPParseError/Code`` for each case and its status.
public struct HTTPRequestParser: Sendable {
    /// What the caller should do next.
    public enum Action: Sendable {
        /// The buffered bytes end mid-request: read more and ``append(_:)`` them.
        case needMoreData
        /// A complete request (head and body). Call ``next()`` again for a pipelined one.
        case request(HTTPServerRequest)
        /// The request is malformed or over a limit; answer `error.status` and close.
        case failure(HTTPParseError)
    }

    enum State: Sendable {
        case requestLine
        case headerFields
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailerFields
        case failed(HTTPParseError)
    }

    /// The limits in force.
    public let configuration: Configuration
    var state: State = .requestLine
    var buffer: [UInt8] = []
    /// First unconsumed byte of `buffer`.
    var readIndex = 0
    /// Where the search for the next LF resumes (bytes before it hold no LF).
    var scanIndex = 0
    /// Whether the line ``takeLine(consumed:)`` took last ended with LF alone.
    var lineEndedWithBareLF = false
    /// Bytes and field lines consumed in the current header or trailer section.
    var sectionBytes = 0
    var sectionFields = 0
    var pending = HTTPServerRequest(method: "", target: "")
    /// Set when a request with `Expect: 100-continue` is waiting for its body.
    var continuePending = false

    /// Creates a parser with the given limits.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        buffer.reserveCapacity(4_096)
    }

    /// Whether bytes of an unfinished request are buffered (used for header timeouts and to decide
    /// whether a connection is idle during a graceful stop).
    @inline(__always)
    public var hasPartialRequest: Bool {
        if case .requestLine = state { return readIndex < buffer.count }
        return true
    }

    /// Whether the head of the current request is complete and its body is being received.
    /// The current request without its body, once its head is complete and while its body is read
    /// (``isReadingBody``); `nil` otherwise.
    @inline(__always)
    public var pendingHead: HTTPServerRequest? {
        guard isReadingBody else { return nil }
        var head = pending
        head.body = []
        return head
    }

    /// Body bytes of the current request received so far (after de-chunking); 0 before its body.
    @inline(__always)
    public var receivedBodyBytes: Int { pending.body.count }

    @inline(__always)
    public var isReadingBody: Bool {
        switch state {
        case .body, .chunkSize, .chunkData, .chunkEnd, .trailerFields: true
        default: false
        }
    }

    /// Whether the server should now send `100 Continue` (RFC 9110 §10.1.1): `true` once, when the
    /// current request carried `Expect: 100-continue` and none of its body has been received.
    /// Calling it clears the flag.
    public mutating func takeContinueRequest() -> Bool {
        guard continuePending else { return false }
        continuePending = false
        switch state {
        case .body, .chunkSize: return pending.body.isEmpty && readIndex == buffer.count
        default: return false
        }
    }

    /// Appends received bytes. Does not parse; call ``next()``.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes. Does not parse; call ``next()``.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Parses as far as the buffered bytes allow and reports the next event.
    /// - Returns: ``Action/needMoreData``, one complete ``Action/request(_:)``, or a sticky
    ///   ``Action/failure(_:)``.
    public mutating func next() -> Action {
        while true {
            switch state {
            case .failed(let error):
                return .failure(error)
            case .requestLine:
                guard let line = takeLine() else {
                    if buffer.count - readIndex > configuration.maxRequestLineBytes + 1 {
                        return fail(requestLineTooLong())
                    }
                    return .needMoreData
                }
                // Length first: fed byte by byte, an overlong line fails before its LF arrives.
                if line.count > configuration.maxRequestLineBytes { return fail(requestLineTooLong()) }
                if lineEndedWithBareLF { return fail(bareLineFeed()) }
                if line.isEmpty { continue }  // RFC 9112 §2.2: ignore empty lines before the request line.
                if let error = parseRequestLine(line) { return fail(error) }
                sectionBytes = 0
                sectionFields = 0
                state = .headerFields
            case .headerFields, .trailerFields:
                let isTrailer: Bool
                if case .trailerFields = state { isTrailer = true } else { isTrailer = false }
                var consumed = sectionBytes
                let taken = takeLine(consumed: &consumed)
                sectionBytes = consumed
                guard let line = taken else {
                    if sectionBytes + buffer.count - readIndex > configuration.maxHeaderBytes {
                        return fail(headerTooLarge())
                    }
                    return .needMoreData
                }
                if sectionBytes > configuration.maxHeaderBytes { return fail(headerTooLarge()) }
                if lineEndedWithBareLF { return fail(bareLineFeed()) }
                if line.isEmpty {
                    if isTrailer { return complete() }
                    if let error = finishHead() { return fail(error) }
                    if case .requestLine = state { return complete() }
                    continue
                }
                sectionFields += 1
                if sectionFields > configuration.maxFieldCount {
                    return fail(HTTPParseError(
                        code: .tooManyFields, status: 431,
                        message: "more than \(configuration.maxFieldCount) header fields"))
                }
                switch parseFieldLine(line) {
                case .success(let field):
                    if isTrailer { pending.trailerFields.append(field) } else { pending.headerFields.append(field) }
                case .failure(let error):
                    return fail(error)
                }
            case .body(let remaining):
                let taken = takeBody(upTo: remaining)
                if taken == remaining { return complete() }
                state = .body(remaining: remaining - taken)
                return .needMoreData
            case .chunkSize, .chunkData, .chunkEnd:
                switch nextChunkStep() {
                case .proceed: continue
                case .needMoreData: return .needMoreData
                case .failure(let error): return fail(error)
                }
            }
        }
    }

    // MARK: - Events

    mutating func fail(_ error: HTTPParseError) -> Action {
        state = .failed(error)
        return .failure(error)
    }

    mutating func complete() -> Action {
        continuePending = false
        let request = pending
        pending = HTTPServerRequest(method: "", target: "")
        state = .requestLine
        return .request(request)
    }

    func bareLineFeed() -> HTTPParseError {
        .badRequest(.bareLineFeed, "a line ended by LF without CR")
    }

    func requestLineTooLong() -> HTTPParseError {
        HTTPParseError(
            code: .requestLineTooLong, status: 414,
            message: "request line longer than \(configuration.maxRequestLineBytes) bytes")
    }

    func headerTooLarge() -> HTTPParseError {
        HTTPParseError(
            code: .headerSectionTooLarge, status: 431,
            message: "header section longer than \(configuration.maxHeaderBytes) bytes")
    }

    // MARK: - Buffer

    /// Drops consumed bytes so the buffer does not grow across pipelined requests.
    mutating func compact() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
            scanIndex = 0
        } else if readIndex >= 4_096 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }

    /// Takes the next line (through its LF) and returns its content without CRLF or LF.
    mutating func takeLine() -> ArraySlice<UInt8>? {
        var ignored = 0
        return takeLine(consumed: &ignored)
    }

    /// Takes the next line, adding the bytes consumed (terminator included) to `consumed`.
    mutating func takeLine(consumed: inout Int) -> ArraySlice<UInt8>? {
        let start = readIndex, scan = scanIndex, end = buffer.count
        let found: Int? = buffer.withUnsafeBufferPointer { base -> Int? in
            guard scan < end, let start = base.baseAddress,
                let raw = memchr(start + scan, Int32(ASCII.lf), end - scan)
            else { return nil }
            return UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - start
        }
        guard let lf = found else {
            scanIndex = end
            return nil
        }
        var contentEnd = lf
        lineEndedWithBareLF = true
        if contentEnd > start && buffer[contentEnd - 1] == ASCII.cr {
            contentEnd -= 1
            lineEndedWithBareLF = false
        }
        readIndex = lf + 1
        scanIndex = readIndex
        consumed += readIndex - start
        return buffer[start..<contentEnd]
    }

    /// Moves up to `limit` buffered bytes into the pending body; returns how many.
    mutating func takeBody(upTo limit: Int) -> Int {
        let count = min(limit, buffer.count - readIndex)
        if count > 0 {
            pending.body.append(contentsOf: buffer[readIndex..<(readIndex + count)])
            readIndex += count
            scanIndex = readIndex
        }
        return count
    }
}
