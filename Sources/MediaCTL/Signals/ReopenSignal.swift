import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Calls an action on its own thread every time the process receives a signal (`SIGUSR1` for the
/// access log's reopen), until ``cancel()``.
///
/// On a ``SignalPipe``, as ``ShutdownSignals`` and ``HangupSignals`` are: the handler only writes one
/// byte to a non-blocking self-pipe (async-signal-safe); a watcher thread reads it and runs the action.
/// Signals arriving while the action runs are coalesced by the pipe (each byte is one more run), never lost.
/// One instance may be installed per process at a time; ``cancel()`` restores the previous action.
public final class ReopenSignal: Sendable {
    /// The signal handled.
    public let signal: Int32
    private let pipe: SignalPipe
    private let installed = Atomic<Bool>(true)

    /// Installs the handler for `signal` and starts the watcher thread running `action` once per signal.
    /// - Throws: ``CommandError`` `signal-handling` (exit 1): `cannot create the signal pipe: <errno text>`,
    ///   `another ReopenSignal is already installed`, `cannot handle signal <n>: <errno text>`.
    public init(signal: Int32 = SIGUSR1, action: @escaping @Sendable () -> Void) throws(CommandError) {
        pipe = try SignalPipe([signal], slot: .reopen, owner: "ReopenSignal")
        self.signal = signal
        let readEnd = pipe.readEnd
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
        guard installed.exchange(false, ordering: .sequentiallyConsistent) else { return }
        pipe.uninstall()
        pipe.wake()
        close(pipe.writeEnd)
    }
}
