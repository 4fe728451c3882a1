import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the installed ``HangupSignals`` pipe, or -1; read by the signal handler.
private let hangupPipeWriteEnd = Atomic<Int32>(-1)

/// `SIGHUP` for `mediactl serve`: each one runs an action (a policy reload) instead of ending the process.
///
/// `init` installs a `sigaction` handler that writes one byte to a non-blocking self-pipe
/// (async-signal-safe), so a `SIGHUP` that arrives before ``start(_:)`` is kept and handled then;
/// ``start(_:)`` reads the pipe on a dedicated thread and runs the action once per signal, one at a time
/// (signals that arrive while it runs are merged into one more run). ``cancel()`` restores the previous
/// disposition and ends the thread. One instance per process at a time.
final class HangupSignals: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let previous: SavedHangupAction
    private let finished = Atomic<Bool>(false)

    /// Installs the handler.
    /// - Throws: ``CommandError`` `signalHandling` (exit 1): `cannot create the signal pipe: <errno text>`,
    ///   `another HangupSignals is already installed`, `cannot handle signal 1: <errno text>`.
    init() throws(CommandError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw Self.error("cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        guard hangupPipeWriteEnd.compareExchange(expected: -1, desired: fds[1], ordering: .sequentiallyConsistent).exchanged
        else {
            close(fds[0])
            close(fds[1])
            throw Self.error("another HangupSignals is already installed")
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let savedErrno = errno
            let fd = hangupPipeWriteEnd.load(ordering: .relaxed)
            if fd >= 0 {
                var byte: UInt8 = 1
                _ = write(fd, &byte, 1)
            }
            errno = savedErrno
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        var old = sigaction()
        guard sigaction(SIGHUP, &action, &old) == 0 else {
            let reason = String(cString: strerror(errno))
            hangupPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
            close(fds[0])
            close(fds[1])
            throw Self.error("cannot handle signal \(SIGHUP): \(reason)")
        }
        readEnd = fds[0]
        writeEnd = fds[1]
        previous = SavedHangupAction(action: old)
    }

    deinit {
        cancel()
    }

    /// Runs `action` on a dedicated thread for each `SIGHUP` until ``cancel()``. Call it at most once.
    func start(_ action: @escaping @Sendable () -> Void) {
        let readEnd = self.readEnd
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                // 0: the write end was closed (cancel); a 0 byte is cancel's wake-up.
                guard count > 0, !buffer[0..<count].contains(0) else { return }
                action()
            }
        }
        thread.name = "mediactl-sighup"
        thread.start()
    }

    /// Restores the previous `SIGHUP` disposition and ends the reading thread (after a running action). Idempotent.
    func cancel() {
        guard !finished.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var old = previous.action
        sigaction(SIGHUP, &old, nil)
        hangupPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
        close(writeEnd)
        // The read end closes with the process; closing it here could hand its number to another file
        // while the thread still reads it.
    }

    private static func error(_ message: String) -> CommandError {
        CommandError(.signalHandling, message, exitCode: .failure)
    }
}

/// `SIGHUP`'s action before ``HangupSignals`` replaced it.
private struct SavedHangupAction: @unchecked Sendable {
    let action: sigaction
}
