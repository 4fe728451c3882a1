import CCurl
import HTTPCaching
import MediaCore
import MediaOrigin
import Synchronization

/// One attempt of a fetch inside ``CurlEngine``: the request, the response as it arrives, and
/// the continuation to resume exactly once.
///
/// Threading: the fetching task creates it and sets ``continuation`` before handing it to the
/// engine's mailbox (the mailbox lock orders the two); from then on only the engine thread reads
/// or writes its state (the curl callbacks run inside `curl_multi_perform` on that thread),
/// except ``cancelled``, which the task's cancellation handler sets.
final class CurlTransfer: @unchecked Sendable {
    let request: OriginRequest
    /// Receives each interim (1xx) response when its head ends (``MediaService/OriginFetching/fetch(_:interim:)``), or `nil`.
    let interim: OriginInterimResponse.Handler?
    /// `CURLOPT_TIMEOUT_MS` of this attempt: the fetch's remaining time.
    let timeoutMilliseconds: Int
    let isHead: Bool
    /// ``CurlOriginFetcher/Configuration/idleTimeout``.
    let idleTimeout: Duration
    var continuation: CheckedContinuation<OriginResponse, any Error>?
    /// Set by the task's cancellation handler (any thread).
    let cancelled = Atomic<Bool>(false)

    // Engine-thread state.
    var easy: UnsafeMutableRawPointer?
    var headerList: OpaquePointer?
    var postFields: UnsafeMutableRawPointer?
    var started = ContinuousClock.now
    /// When bytes of the answer last arrived (a header line or a body chunk): the engine's stall check.
    var lastProgress = ContinuousClock.now
    var finished = false
    /// The status of the last status line (1xx interim responses included), 0 before one.
    var status = 0
    /// Whether the final response's head ended (later header lines are trailers).
    var headEnded = false
    var fields: [HTTPFields.Field] = []
    var announcedLength: Int?
    var body: [UInt8] = []
    /// Why a callback aborted the transfer (``MediaService/OriginError/Code/tooLarge``).
    var abort: OriginError?

    init(request: OriginRequest, timeoutMilliseconds: Int, idleTimeout: Duration,
         interim: OriginInterimResponse.Handler? = nil) {
        self.request = request
        self.interim = interim
        self.timeoutMilliseconds = timeoutMilliseconds
        self.idleTimeout = idleTimeout
        isHead = request.method == .head
    }

    /// Resumes the fetching task (exactly once; engine thread, never under a lock).
    func finish(_ result: Result<OriginResponse, any Error>) {
        guard !finished else { return }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume(with: result)
    }

    /// The received response, its fields as the caller should see them (``CurlTransfer/visibleFields()``).
    func response(status code: Int) -> OriginResponse {
        OriginResponse(status: HTTPStatus(code: code), fields: visibleFields(), body: body)
    }
}

extension CurlTransfer {
    /// `CURLOPT_WRITEFUNCTION`: appends body bytes under ``MediaService/OriginRequest/maxBodyBytes``; returning
    /// less than given aborts the transfer (`CURLE_WRITE_ERROR`) and closes its connection.
    static let writeCallback: ccurl_write_callback = { buffer, size, count, user in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
        let length = size * count
        guard transfer.abort == nil else { return 0 }
        if transfer.body.count + length > transfer.request.maxBodyBytes {
            transfer.abort = OriginError(.tooLarge, "the body exceeds \(transfer.request.maxBodyBytes) bytes")
            return 0
        }
        if length > 0, let buffer {
            transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: length))
            transfer.lastProgress = .now   // body bytes arrived (the engine's stall check)
        }
        return length
    }

    /// `CURLOPT_HEADERFUNCTION`: one header line per call (status lines and the blank line included).
    static let headerCallback: ccurl_write_callback = { buffer, size, count, user in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
        let length = size * count
        guard let buffer else { return length }
        return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }
}
