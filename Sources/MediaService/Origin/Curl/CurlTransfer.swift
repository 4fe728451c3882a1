import CCurl
import HTTPCaching
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
    /// When bytes last moved (either way; a header line counts), and how many body bytes had moved then.
    var lastProgress = ContinuousClock.now
    var progressBytes: Int64 = 0
    var finished = false
    /// The status of the last status line (1xx interim responses included), 0 before one.
    var status = 0
    /// Whether the final response's head ended (later header lines are trailers).
    var headEnded = false
    var fields: [HTTPFields.Field] = []
    var announcedLength: Int?
    var body: [UInt8] = []
    /// Why a callback aborted the transfer (``OriginError/Code/tooLarge``).
    var abort: OriginError?

    init(request: OriginRequest, timeoutMilliseconds: Int, idleTimeout: Duration) {
        self.request = request
        self.timeoutMilliseconds = timeoutMilliseconds
        self.idleTimeout = idleTimeout
        isHead = request.method == "HEAD"
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
        OriginResponse(status: code, fields: visibleFields(), body: body)
    }
}

extension CurlTransfer {
    /// `CURLOPT_WRITEFUNCTION`: appends body bytes under ``OriginRequest/maxBodyBytes``; returning
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
            transfer.lastProgress = .now   // body bytes moved (also seen by the engine's own stall check)
        }
        return length
    }

    /// `CURLOPT_XFERINFOFUNCTION` (called at least once a second while the transfer runs: the
    /// engine's `curl_multi_poll` waits at most 1 s and `curl_multi_perform` then runs every
    /// transfer): aborts a transfer on which no byte moved for ``idleTimeout`` once the final
    /// response's status line has arrived (an interim 1xx does not count). Before the status line, the origin is working on its answer: only
    /// the connect timeout and the request's total timeout (the tier's `originTimeout`) bound that
    /// wait. The engine makes the same check between polls (`CurlEngine.abortStalled()`), whichever
    /// comes first. libcurl's own (`CURLOPT_LOW_SPEED_*`) is not set, as it
    /// runs from the moment the request is sent and would fail an origin that thinks for longer
    /// than the idle timeout before answering (it also averages over a window of several seconds).
    static let progressCallback: ccurl_xferinfo_callback = { user, _, received, _, sent in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
        guard transfer.status >= 200 else { return 0 }   // no final status line yet (1xx is interim)
        let moved = received + sent
        let now = ContinuousClock.now
        if moved != transfer.progressBytes {
            transfer.progressBytes = moved
            transfer.lastProgress = now
            return 0
        }
        guard transfer.lastProgress.duration(to: now) >= transfer.idleTimeout else { return 0 }
        transfer.abort = OriginError(.timeout, "the connection was idle too long")
        return 1
    }

    /// `CURLOPT_HEADERFUNCTION`: one header line per call (status lines and the blank line included).
    static let headerCallback: ccurl_write_callback = { buffer, size, count, user in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
        let length = size * count
        guard let buffer else { return length }
        return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }
}
