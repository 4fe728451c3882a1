import Glibc
import Synchronization

/// The write end of the self-pipe, read by the async-signal-safe handler (`-1` until installed).
private let signalPipeWrite = Atomic<Int32>(-1)

/// Runs a closure once, on its own thread, when the process receives one of the given signals
/// (by default `SIGINT` and `SIGTERM`) — e.g. to write the `stop` audit record and call
/// ``HTTPServer/stop()``.
///
/// The signal handler only writes one byte to a pipe (async-signal-safe); a watcher thread reads
/// it and calls the closure. Later signals are ignored by the closure (it runs at most once).
/// One trap per process: installing a second one throws.
public final class HTTPSignalTrap: Sendable {
    private let pipe: (read: Int32, write: Int32)

    /// Installs the handlers and starts the watcher thread.
    /// - Parameters:
    ///   - signals: the signal numbers to catch. Default: `[SIGINT, SIGTERM]`.
    ///   - action: run once, on the watcher thread, after the first of those signals.
    /// - Throws: ``HTTPServerError`` `socketFailed` (pipe) or `threadFailed` (watcher thread, or a
    ///   trap already installed).
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
        pipe = made
        let readFD = made.read
        guard PosixThread.spawn(stackBytes: 262_144, detached: true, {
            var byte: UInt8 = 0
            while true {
                let count = read(readFD, &byte, 1)
                if count == 1 { break }
                if count < 0 && errno == EINTR { continue }
                return
            }
            action()
        }) != nil else {
            signalPipeWrite.store(-1, ordering: .sequentiallyConsistent)
            close(made.read)
            close(made.write)
            throw HTTPServerError(code: .threadFailed, message: "could not create the signal watcher thread")
        }
        for number in signals {
            var handler = sigaction()
            handler.__sigaction_handler.sa_handler = { _ in
                let fd = signalPipeWrite.load(ordering: .relaxed)
                if fd >= 0 {
                    let saved = errno
                    var byte: UInt8 = 1
                    _ = write(fd, &byte, 1)
                    errno = saved
                }
            }
            sigemptyset(&handler.sa_mask)
            handler.sa_flags = Int32(SA_RESTART)
            sigaction(number, &handler, nil)
        }
        // Never die on a write to a closed socket, whatever path writes it.
        signal(SIGPIPE, SIG_IGN)
    }
}
