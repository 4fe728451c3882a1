import CCurl
import Glibc
import HTTPCaching
import MediaOrigin
import Synchronization

/// The thread that drives one libcurl multi handle for a ``CurlOriginFetcher``.
///
/// - One dedicated thread (not Dispatch's pool) owns the `CURLM` handle and every easy handle;
///   it loops `curl_multi_poll` → `curl_multi_perform` → `curl_multi_info_read`, and every curl
///   call and callback happens on it.
/// - Fetching tasks hand over transfers and cancellations through a mailbox behind a `Mutex`,
///   then wake the thread with `curl_multi_wakeup` (only when the mailbox was empty: one wake-up
///   per drain).
/// - Each transfer's continuation is resumed exactly once, on this thread, never under a lock.
/// - Finished easy handles are reset (`curl_easy_reset`) and kept in a small free list; the
///   connections live in the multi handle's pool, so keep-alive connections are reused across
///   fetches to the same origin.
/// - ``stop()`` (the fetcher's `deinit`) ends the thread, then the handles and the pool are
///   cleaned up and every connection closes.
final class CurlEngine: @unchecked Sendable {
    struct Mailbox {
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var stopping = false
    }

    /// Reset easy handles kept for reuse.
    static let maxIdleHandles = 32

    let library: CurlLibrary
    let configuration: CurlOriginFetcher.Configuration
    private let api: UnsafePointer<ccurl_api>
    private let multi: UnsafeMutableRawPointer
    private let mailbox = Mutex(Mailbox())
    private var thread = pthread_t()
    /// `User-Agent: …` from the configuration.
    let userAgentHeaderLine: String
    /// `CURLOPT_CONNECTTIMEOUT_MS` (capped by the attempt's remaining time).
    let connectTimeoutMilliseconds: Int

    // Engine-thread state.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// When ``abortStalled()`` looks at the transfers next (engine thread only).
    private var nextStallCheck = ContinuousClock.now

    /// Creates the multi handle and starts the thread.
    /// - Throws: ``CurlOriginFetcher/Unavailable`` when the multi handle or the thread cannot be created.
    init(library: CurlLibrary, configuration: CurlOriginFetcher.Configuration) throws {
        self.library = library
        self.configuration = configuration
        api = library.api
        guard let multi = library.api.pointee.multi_init() else {
            throw CurlOriginFetcher.Unavailable("curl_multi_init failed")
        }
        self.multi = multi
        userAgentHeaderLine = "User-Agent: " + configuration.userAgent.filter { $0 != "\r" && $0 != "\n" }
        connectTimeoutMilliseconds = max(1, Int((configuration.connectTimeout ?? configuration.idleTimeout) * 1000))
        _ = ccurl_multi_setopt_long(api, multi, Int32(CCURLMOPT_MAX_HOST_CONNECTIONS), max(0, configuration.maxConnectionsPerHost))
        _ = ccurl_multi_setopt_long(api, multi, Int32(CCURLMOPT_MAX_TOTAL_CONNECTIONS), max(0, configuration.maxTotalConnections))
        _ = ccurl_multi_setopt_long(api, multi, Int32(CCURLMOPT_MAXCONNECTS), max(1, configuration.maxIdleConnections))
        let retained = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let engine = Unmanaged<CurlEngine>.fromOpaque(context!).takeRetainedValue()
            _ = ccurl_set_current_thread_name("curl-engine")  // else it inherits its creator's name
            engine.run()
            return nil
        }, retained)
        guard created == 0 else {
            Unmanaged<CurlEngine>.fromOpaque(retained).release()
            _ = library.api.pointee.multi_cleanup(multi)
            throw CurlOriginFetcher.Unavailable("cannot start the curl engine thread (error \(created))")
        }
    }

    /// Ends the thread and waits for it; its `run` then closes every connection. Idempotent.
    func stop() {
        let wasStopping = mailbox.withLock { mailbox -> Bool in
            defer { mailbox.stopping = true }
            // Woken under the lock: the thread cannot have cleaned up the multi handle yet.
            if !mailbox.stopping { _ = api.pointee.multi_wakeup(multi) }
            return mailbox.stopping
        }
        guard !wasStopping else { return }
        if pthread_equal(pthread_self(), thread) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// Runs one attempt of `request` within `remaining` (`CURLOPT_TIMEOUT_MS`); `interim` receives its
    /// interim responses on the engine thread.
    /// - Throws: ``MediaService/OriginError``, ``OriginAttemptFailure`` (retry decision) or `CancellationError`.
    func perform(_ request: OriginRequest, remaining: Duration,
                 interim: OriginInterimResponse.Handler? = nil) async throws -> OriginResponse {
        let (seconds, attoseconds) = remaining.components
        let milliseconds = max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
        let transfer = CurlTransfer(request: request, timeoutMilliseconds: milliseconds,
                                    idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)), interim: interim)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OriginResponse, any Error>) in
                transfer.continuation = continuation
                if !post({ $0.submitted.append(transfer) }) {
                    // The engine has stopped: no thread would ever resume it.
                    transfer.finish(.failure(CancellationError()))
                }
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .releasing)
            post { $0.cancelled.append(transfer) }
        }
    }

    /// Puts a message in the mailbox, waking the thread when it was empty.
    /// - Returns: false, leaving the mailbox as it is, once ``stop()`` has begun.
    @discardableResult
    private func post(_ change: (inout Mailbox) -> Void) -> Bool {
        mailbox.withLock { mailbox in
            guard !mailbox.stopping else { return false }
            let wasEmpty = mailbox.submitted.isEmpty && mailbox.cancelled.isEmpty
            change(&mailbox)
            if wasEmpty { _ = api.pointee.multi_wakeup(multi) }
            return true
        }
    }

    // MARK: - The engine thread

    private func run() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)   // TLS writes to a closed peer must not kill the process
        var running: Int32 = 0
        // Swapped with the mailbox's arrays: two buffers alternate, no allocation per drain.
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        while true {
            let stopping = mailbox.withLock { mailbox in
                swap(&submitted, &mailbox.submitted)
                swap(&cancelled, &mailbox.cancelled)
                return mailbox.stopping
            }
            for transfer in submitted { start(transfer) }
            for transfer in cancelled { cancel(transfer) }
            submitted.removeAll(keepingCapacity: true)
            cancelled.removeAll(keepingCapacity: true)
            if stopping { break }
            _ = api.pointee.multi_perform(multi, &running)
            collectFinished()
            abortStalled()
            if api.pointee.multi_poll(multi, nil, 0, 1000, nil) != CCURLM_OK {
                usleep(1000)   // a failing poll must not turn the loop into a spin
            }
        }
        for transfer in Array(active.values) { cancel(transfer) }
        for handle in idleHandles { api.pointee.easy_cleanup(handle) }
        idleHandles = []
        _ = api.pointee.multi_cleanup(multi)
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.cancelled.load(ordering: .acquiring) {
            transfer.finish(.failure(CancellationError()))
            return
        }
        guard let easy = idleHandles.popLast() ?? api.pointee.easy_init() else {
            transfer.finish(.failure(OriginAttemptFailure(
                error: OriginError(.connectionFailed, "curl_easy_init failed"), retryable: false)))
            return
        }
        transfer.easy = easy
        if let refusal = configure(easy, for: transfer) {
            release(transfer)
            transfer.finish(.failure(refusal))
            return
        }
        transfer.started = .now
        transfer.lastProgress = transfer.started
        guard api.pointee.multi_add_handle(multi, easy) == CCURLM_OK else {
            transfer.easy = nil
            api.pointee.easy_cleanup(easy)
            freeRequestMemory(of: transfer)
            transfer.finish(.failure(OriginAttemptFailure(
                error: OriginError(.connectionFailed, "curl_multi_add_handle failed"), retryable: false)))
            return
        }
        active[easy] = transfer
    }

    private func cancel(_ transfer: CurlTransfer) {
        guard !transfer.finished, let easy = transfer.easy, active[easy] === transfer else { return }
        active[easy] = nil
        _ = api.pointee.multi_remove_handle(multi, easy)
        release(transfer)
        transfer.finish(.failure(CancellationError()))
    }

    /// The stall check: fails transfers whose final response has begun (status line 200 or above; an
    /// interim 1xx does not count) but on which no byte arrived for their idle timeout, looking at
    /// most every 250 ms (the poll wakes at least once a second). Before the status line the origin is
    /// working on its answer: only the connect timeout and the request's total timeout (the tier's
    /// `originTimeout`) bound that wait. Made here rather than in a progress callback, so it does not
    /// depend on libcurl running transfers without activity; libcurl's own check
    /// (`CURLOPT_LOW_SPEED_*`) is not set, as it runs from the moment the request is sent and would
    /// fail an origin that thinks for longer than the idle timeout before answering.
    private func abortStalled() {
        let now = ContinuousClock.now
        guard now >= nextStallCheck, !active.isEmpty else { return }
        nextStallCheck = now + .milliseconds(250)
        let stalled = active.filter { _, transfer in
            transfer.status >= 200 && transfer.lastProgress.duration(to: now) >= transfer.idleTimeout
        }
        for (easy, transfer) in stalled {
            active[easy] = nil
            _ = api.pointee.multi_remove_handle(multi, easy)
            release(transfer)
            transfer.finish(.failure(OriginError(.timeout, "the connection was idle too long")))
        }
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = api.pointee.multi_info_read(multi, &queued) {
            guard message.pointee.msg == CCURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let transfer = active.removeValue(forKey: easy) else { continue }
            var responseCode = 0
            _ = ccurl_easy_getinfo_long(api, easy, Int32(CCURLINFO_RESPONSE_CODE), &responseCode)
            let elapsed = transfer.started.duration(to: .now).components
            let elapsedMilliseconds = Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000)
            _ = api.pointee.multi_remove_handle(multi, easy)
            release(transfer)
            transfer.finish(transfer.outcome(code, responseCode: responseCode, elapsedMilliseconds: elapsedMilliseconds))
        }
    }

    /// Resets the transfer's easy handle into the free list (or frees it) and frees its request memory.
    private func release(_ transfer: CurlTransfer) {
        if let easy = transfer.easy {
            transfer.easy = nil
            if idleHandles.count < Self.maxIdleHandles {
                api.pointee.easy_reset(easy)
                idleHandles.append(easy)
            } else {
                api.pointee.easy_cleanup(easy)
            }
        }
        freeRequestMemory(of: transfer)
    }

    private func freeRequestMemory(of transfer: CurlTransfer) {
        if let list = transfer.headerList {
            api.pointee.slist_free_all(list)
            transfer.headerList = nil
        }
        if let fields = transfer.postFields {
            fields.deallocate()
            transfer.postFields = nil
        }
    }
}
