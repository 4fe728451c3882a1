import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the installed ``ShutdownSignals`` pipe, or -1; read by the signal handler.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Waits for a shutdown signal, for `mediactl serve` and `mediactl demo --keep-serving`.
///
/// `init` installs a `sigaction` handler for each signal that writes the signal number to a
/// non-blocking self-pipe (async-signal-safe); ``wait()`` reads it on a dedicated thread, so no
/// cooperative-pool thread blocks. After the first signal (or ``cancel()``) the previous actions
/// are restored, so a second Ctrl-C ends the process the default way. One instance may be
/// installed per process at a time.
public final class ShutdownSignals: Sendable {
    private enum State: Sendable {
        case installed, waiting, finished
    }

    /// The signals handled, such as `[SIGINT, SIGTERM]`.
    public let signals: [Int32]
    private let readEnd: Int32
    private let writeEnd: Int32
    private let previous: [SavedAction]
    private let state = Mutex<State>(.installed)

    /// Installs handlers for `signals`. Default: `SIGINT` and `SIGTERM`.
    /// - Throws: ``CommandError`` `signalHandling` (exit 1): `cannot create the signal pipe: <errno
    ///   text>`, `another ShutdownSignals is already installed`,
    ///   `cannot handle signal <n>: <errno text>`.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM]) throws(CommandError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw Self.error("cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        // The read end blocks (the reader thread sleeps in read); the handler's end must not.
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        guard
            signalPipeWriteEnd.compareExchange(expected: -1, desired: fds[1], ordering: .sequentiallyConsistent)
                .exchanged
        else {
            close(fds[0])
            close(fds[1])
            throw Self.error("another ShutdownSignals is already installed")
        }
        var saved: [SavedAction] = []
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let savedErrno = errno
                let fd = signalPipeWriteEnd.load(ordering: .relaxed)
                if fd >= 0 {
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = write(fd, &byte, 1)
                }
                errno = savedErrno
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            guard sigaction(number, &action, &old) == 0 else {
                let reason = String(cString: strerror(errno))
                SavedAction.restore(saved)
                signalPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
                close(fds[0])
                close(fds[1])
                throw Self.error("cannot handle signal \(number): \(reason)")
            }
            saved.append(SavedAction(number: number, action: old))
        }
        self.signals = signals
        self.readEnd = fds[0]
        self.writeEnd = fds[1]
        self.previous = saved
    }

    /// Releasing an instance that was never waited on or cancelled restores the previous actions.
    deinit {
        uninstall()
    }

    /// Suspends until one of ``signals`` arrives.
    /// - Returns: the signal number, or `nil` when ``cancel()`` was called (before or during the
    ///   wait) or the instance already finished. Call it at most once.
    public func wait() async -> Int32? {
        let proceed = state.withLock { state -> Bool in
            guard case .installed = state else { return false }
            state = .waiting
            return true
        }
        guard proceed else { return nil }
        let readEnd = self.readEnd
        let byte: UInt8 = await withCheckedContinuation { continuation in
            let thread = Thread {
                var byte: UInt8 = 0
                while read(readEnd, &byte, 1) < 0, errno == EINTR {}
                continuation.resume(returning: byte)
            }
            thread.name = "mediactl-signals"
            thread.start()
        }
        uninstall()
        return byte == 0 ? nil : Int32(byte)
    }

    /// Stops waiting: a pending ``wait()`` returns `nil`, and the previous actions are restored.
    public func cancel() {
        // The wake-up byte is written under the lock: uninstall marks `.finished` under the same
        // lock before closing the pipe, so the descriptor is still open here.
        let uninstallNow = state.withLock { state -> Bool in
            switch state {
            case .installed:
                state = .finished
                return true
            case .waiting:
                var zero: UInt8 = 0
                _ = write(writeEnd, &zero, 1)
                return false
            case .finished:
                return false
            }
        }
        if uninstallNow { uninstall() }
    }

    /// Restores the previous actions and closes the pipe; runs once.
    private func uninstall() {
        state.withLock { $0 = .finished }
        guard !uninstalled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        SavedAction.restore(previous)
        signalPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
        close(readEnd)
        close(writeEnd)
    }

    private let uninstalled = Atomic<Bool>(false)

    private static func error(_ message: String) -> CommandError {
        CommandError(.signalHandling, message, exitCode: .failure)
    }
}

/// A signal's action before ``ShutdownSignals`` replaced it.
private struct SavedAction: @unchecked Sendable {
    let number: Int32
    let action: sigaction

    static func restore(_ saved: [SavedAction]) {
        for entry in saved {
            var action = entry.action
            sigaction(entry.number, &action, nil)
        }
    }
}
