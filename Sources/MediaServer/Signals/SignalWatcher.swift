import MediaCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the installed watcher's pipe, or -1; read by the signal handler, which cannot capture
/// context (it is a C function pointer).
private let installedWriteEnd = Atomic<Int32>(-1)

/// The signals delivered to the process, as an `AsyncStream`: `serve` stops on SIGINT or SIGTERM, reloads its
/// policies on SIGHUP and reopens its access log on SIGUSR1, all from one watcher.
///
/// A self-pipe: a `sigaction` handler per signal writes the signal's number, one byte, to a non-blocking pipe
/// (async-signal-safe, `errno` preserved); a thread blocked on the read end yields each number to ``events``.
/// Signals delivered before anyone iterates are kept (the stream buffers them). One watcher may be installed
/// per process at a time; ``cancel()`` (or releasing the watcher) restores the signals' previous actions and
/// finishes ``events``.
public final class SignalWatcher: Sendable {
    /// The signals watched, as given.
    public let signals: [Int32]
    /// Every watched signal delivered, in order; finishes after ``cancel()``.
    public let events: AsyncStream<Int32>

    private let readEnd: Int32
    private let writeEnd: Int32
    private let previous: [SavedAction]
    private let cancelled = Atomic<Bool>(false)

    /// Installs a handler for each of `signals` and starts the watcher thread.
    /// - Throws: ``SignalWatcherError``: `cannot create the signal pipe: <errno text>`,
    ///   `another SignalWatcher is already installed`, `cannot handle signal <n>: <errno text>` (then nothing stays
    ///   installed).
    public init(_ signals: [Int32]) throws(SignalWatcherError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw SignalWatcherError("cannot create the signal pipe: \(SystemErrorText.current)")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        // The read end blocks (the watcher thread sleeps in read); the handler's end must not.
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        guard installedWriteEnd.compareExchange(expected: -1, desired: fds[1], ordering: .sequentiallyConsistent).exchanged
        else {
            close(fds[0])
            close(fds[1])
            throw SignalWatcherError("another SignalWatcher is already installed")
        }
        var saved: [SavedAction] = []
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let savedErrno = errno
                let fd = installedWriteEnd.load(ordering: .relaxed)
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
                let reason = SystemErrorText.current
                Self.restore(saved)
                installedWriteEnd.store(-1, ordering: .sequentiallyConsistent)
                close(fds[0])
                close(fds[1])
                throw SignalWatcherError("cannot handle signal \(number): \(reason)")
            }
            saved.append(SavedAction(number: number, action: old))
        }
        self.signals = signals
        readEnd = fds[0]
        writeEnd = fds[1]
        previous = saved
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        events = stream
        let readEnd = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                // A 0 byte is cancel's wake-up, never a signal; 0 bytes read: the write end was closed.
                guard count == 1, byte != 0 else { break }
                continuation.yield(Int32(byte))
            }
            continuation.finish()
            close(readEnd)
        }
        thread.name = "mediactl-signals"
        thread.start()
    }

    deinit { cancel() }

    /// Restores the signals' previous actions and finishes ``events`` (signals already yielded stay in it).
    /// Idempotent.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        Self.restore(previous)
        installedWriteEnd.store(-1, ordering: .sequentiallyConsistent)
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
        close(writeEnd)
        // The read end is the thread's to close: closing it here could hand its number to another file
        // while the thread still reads it.
    }

    /// The first of `stopping` delivered, after which the watcher is cancelled (a second SIGINT then has its
    /// default effect); the others of ``signals`` go to `other` as they come. `nil` when cancelled first.
    public func first(of stopping: Set<Int32>, other: @Sendable (Int32) async -> Void = { _ in }) async -> Int32? {
        for await number in events {
            if stopping.contains(number) {
                cancel()
                return number
            }
            await other(number)
        }
        return nil
    }

    /// A signal's action before the watcher's handler replaced it.
    private struct SavedAction: @unchecked Sendable {
        let number: Int32
        let action: sigaction
    }

    private static func restore(_ saved: [SavedAction]) {
        for entry in saved {
            var action = entry.action
            sigaction(entry.number, &action, nil)
        }
    }
}

/// Why a ``SignalWatcher`` could not be installed; ``message`` is the exact text.
public struct SignalWatcherError: Error, Hashable, Sendable {
    /// Such as `another SignalWatcher is already installed`.
    public let message: String

    public init(_ message: String) { self.message = message }
}
