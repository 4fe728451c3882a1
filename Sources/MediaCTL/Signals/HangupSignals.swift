import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `SIGHUP` for `mediactl serve`: each one runs an action (a policy reload) instead of ending the process.
///
/// `init` installs a ``SignalPipe`` (its handler writes one byte to a non-blocking self-pipe,
/// async-signal-safe), so a `SIGHUP` that arrives before ``start(_:)`` is kept and handled then;
/// ``start(_:)`` reads the pipe on a dedicated thread and runs the action once per signal, one at a time
/// (signals that arrive while it runs are merged into one more run). ``cancel()`` restores the previous
/// disposition and ends the thread. One instance per process at a time.
final class HangupSignals: Sendable {
    private let pipe: SignalPipe
    private let finished = Atomic<Bool>(false)

    /// Installs the handler.
    /// - Throws: ``CommandError`` `signalHandling` (exit 1): `cannot create the signal pipe: <errno text>`,
    ///   `another HangupSignals is already installed`, `cannot handle signal 1: <errno text>`.
    init() throws(CommandError) {
        pipe = try SignalPipe([SIGHUP], slot: .hangup, owner: "HangupSignals")
    }

    deinit {
        cancel()
    }

    /// Runs `action` on a dedicated thread for each `SIGHUP` until ``cancel()``. Call it at most once.
    func start(_ action: @escaping @Sendable () -> Void) {
        let readEnd = pipe.readEnd
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
        pipe.uninstall()
        pipe.wake()
        close(pipe.writeEnd)
        // The read end closes with the process; closing it here could hand its number to another file
        // while the thread still reads it.
    }
}
