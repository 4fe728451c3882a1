import Glibc
import Synchronization

/// The write end of the self-pipe, read by the async-signal-safe handler (`-1` when no trap is installed).
private let signalPipeWrite = Atomic<Int32>(-1)

/// Runs a closure once, on its own thread, when the process receives one of the given signals
/// (by default `SIGINT` and `SIGTERM`) — e.g. to write the `stop` audit record and call
/// ``HTTPServer/stop()``.
///
/// The signal handler only writes one byte to a pipe (async-signal-safe); a watcher thread reads
/// it and calls the closure. Later signals are swallowed (the closure runs at most once) until
/// ``cancel()`` restores the previous dispositions. One trap at a time per process.
/// Installing also sets `SIGPIPE` to ignored.
public final class HTTPSignalTrap: Sendable {
    private let signals: [Int32]
    private let writeFD: Int32
    private let previous: Mutex<[sigaction]?>

    /// Installs the handlers and starts the watcher thread.
    /// - Parameters:
    ///   - signals: the signal numbers to catch. Default: `[SIGINT, SIGTERM]`.
    ///   - action: run once, on the watcher thread, after the first of those signals.
    /// - Throws: ``HTTPServerError`` `socketFailed` (pipe) or `threadFailed` (watcher thread, or
    ///   `"a signal trap is already installed"`).
    public init(signals: [Int32] = [SIGINT, SIGTERM], action: @escaping @Sendable () -> Void) throws(HTTPServerError) {
        let made = try Socket.makePipe()
        // The watcher blocks on its read end; only the write end stays non-blocking.
        _ = fcntl(made.read, F_SETFL, fcntl(made.read, F_GETFL) & ~O_NONBLOCK)
        guard signalPipeWrite.compareExchange(expected: -1, desired: made.write, ordering: .sequentiallyConsistent)
            .exchanged
        else {
            close(made.read)
            close(made.write)
            throw HTTPServerError(code: .threadFailed, message: "a signal trap is already installed")
        }
        let readFD = made.read
        guard PosixThread.spawn(name: "http-signals", stackBytes: 262_144, detached: true, {
            defer { close(readFD) }
            var byte: UInt8 = 0
            while true {
                let count = read(readFD, &byte, 1)
                if count == 1 { break }
                if count < 0 && errno == EINTR { continue }
                return  // cancelled: the write end was closed
            }
            action()
        }) != nil else {
            signalPipeWrite.store(-1, ordering: .sequentiallyConsistent)
            close(made.read)
            close(made.write)
            throw HTTPServerError(code: .threadFailed, message: "could not create the signal watcher thread")
        }
        var saved: [sigaction] = []
        for number in signals {
            var handler = sigaction()
            handler.__sigaction_handler.sa_handler = { _ in
                let fd = signalPipeWrite.load(ordering: .relaxed)
                if fd >= 0 {
                    let savedErrno = errno
                    var byte: UInt8 = 1
                    _ = write(fd, &byte, 1)
                    errno = savedErrno
                }
            }
            sigemptyset(&handler.sa_mask)
            handler.sa_flags = Int32(SA_RESTART)
            var old = sigaction()
            sigaction(number, &handler, &old)
            saved.append(old)
        }
        signal(SIGPIPE, SIG_IGN)
        self.signals = signals
        self.writeFD = made.write
        self.previous = Mutex(saved)
    }

    /// Restores the signal dispositions found at installation, stops the watcher without running
    /// the action (if it has not run yet), and allows a new trap. Idempotent.
    public func cancel() {
        guard let saved = previous.withLock({ current -> [sigaction]? in
            defer { current = nil }
            return current
        }) else { return }
        for (number, old) in zip(signals, saved) {
            var restored = old
            sigaction(number, &restored, nil)
        }
        signalPipeWrite.store(-1, ordering: .sequentiallyConsistent)
        close(writeFD)
    }
}
