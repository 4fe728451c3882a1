import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the installed ``ReopenSignal`` pipe, or -1; read by the signal handler.
private let reopenPipeWriteEnd = Atomic<Int32>(-1)

/// Calls an action on its own thread every time the process receives a signal (`SIGUSR1` for the
/// access log's reopen), until ``cancel()``.
///
/// As ``ShutdownSignals`` and ``HTTPServer/HTTPSignalTrap`` do, the `sigaction` handler only writes one
/// byte to a non-blocking self-pipe (async-signal-safe); a watcher thread reads it and runs the action.
/// Signals arriving while the action runs are coalesced by the pipe (each byte is one more run), never lost.
/// One instance may be installed per process at a time; ``cancel()`` restores the previous action.
public final class ReopenSignal: Sendable {
    /// The signal handled.
    public let signal: Int32
    private let readEnd: Int32
    private let writeEnd: Int32
    private let previous: Mutex<sigaction?>

    /// Installs the handler for `signal` and starts the watcher thread running `action` once per signal.
    /// - Throws: ``CommandError`` `signal-handling` (exit 1): `cannot create the signal pipe: <errno text>`,
    ///   `another ReopenSignal is already installed`, `cannot handle signal <n>: <errno text>`.
    public init(signal: Int32 = SIGUSR1, action: @escaping @Sendable () -> Void) throws(CommandError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw Self.error("cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        guard reopenPipeWriteEnd.compareExchange(expected: -1, desired: fds[1], ordering: .sequentiallyConsistent).exchanged
        else {
            close(fds[0])
            close(fds[1])
            throw Self.error("another ReopenSignal is already installed")
        }
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { _ in
            let savedErrno = errno
            let fd = reopenPipeWriteEnd.load(ordering: .relaxed)
            if fd >= 0 {
                var byte: UInt8 = 1
                _ = write(fd, &byte, 1)
            }
            errno = savedErrno
        }
        handler.sa_flags = SA_RESTART
        sigemptyset(&handler.sa_mask)
        var old = sigaction()
        guard sigaction(signal, &handler, &old) == 0 else {
            let reason = String(cString: strerror(errno))
            reopenPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
            close(fds[0])
            close(fds[1])
            throw Self.error("cannot handle signal \(signal): \(reason)")
        }
        self.signal = signal
        readEnd = fds[0]
        writeEnd = fds[1]
        previous = Mutex(old)
        let readEnd = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count != 1 || byte == 0 { break }  // 0: cancelled
                action()
            }
            close(readEnd)
        }
        thread.name = "mediactl-reopen"
        thread.start()
    }

    deinit { cancel() }

    /// Restores the previous action and stops the watcher (after an action in progress). Idempotent.
    public func cancel() {
        guard let old = previous.withLock({ saved -> sigaction? in
            defer { saved = nil }
            return saved
        }) else { return }
        var restored = old
        sigaction(signal, &restored, nil)
        reopenPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
        close(writeEnd)
    }

    private static func error(_ message: String) -> CommandError {
        CommandError(.signalHandling, message, exitCode: .failure)
    }
}
