import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for a shutdown signal, for `mediactl serve` and `mediactl demo --keep-serving`.
///
/// `init` installs a ``SignalPipe`` whose handlers write the signal number to a non-blocking self-pipe
/// (async-signal-safe); ``wait()`` reads it on a dedicated thread, so no
/// cooperative-pool thread blocks. After the first signal (or ``cancel()``) the previous actions
/// are restored, so a second Ctrl-C ends the process the default way. One instance may be
/// installed per process at a time.
public final class ShutdownSignals: Sendable {
    private enum State: Sendable {
        case installed, waiting, finished
    }

    /// The signals handled, such as `[SIGINT, SIGTERM]`.
    public let signals: [Int32]
    private let pipe: SignalPipe
    private let state = Mutex<State>(.installed)

    /// Installs handlers for `signals`. Default: `SIGINT` and `SIGTERM`.
    /// - Throws: ``CommandError`` `signalHandling` (exit 1): `cannot create the signal pipe: <errno
    ///   text>`, `another ShutdownSignals is already installed`,
    ///   `cannot handle signal <n>: <errno text>`.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM]) throws(CommandError) {
        pipe = try SignalPipe(signals, slot: .shutdown, owner: "ShutdownSignals")
        self.signals = signals
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
        let readEnd = pipe.readEnd
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
                pipe.wake()
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
        pipe.uninstall()
        close(pipe.readEnd)
        close(pipe.writeEnd)
    }

    private let uninstalled = Atomic<Bool>(false)
}
