import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write ends of the installed pipes, one per ``SignalPipe/Slot``, or -1; read by the signal handlers, which
/// cannot capture context (they are C function pointers).
private let shutdownWriteEnd = Atomic<Int32>(-1)
private let hangupWriteEnd = Atomic<Int32>(-1)
private let reopenWriteEnd = Atomic<Int32>(-1)

/// The self-pipe every signal watcher of `mediactl` is built on (``ShutdownSignals``, ``HangupSignals``,
/// ``ReopenSignal``): a `sigaction` handler per signal that writes the signal's number, one byte, to a
/// non-blocking pipe (async-signal-safe, `errno` preserved), and a blocking read end for a watcher thread. A
/// `0` byte is never a signal: the watcher's owner writes it to wake the thread when it stops (``wake()``).
///
/// One pipe per ``Slot`` may be installed per process at a time; ``uninstall()`` restores the signals'
/// previous actions and frees the slot. The read end is the owner's to close.
struct SignalPipe: Sendable {
    /// Which watcher the pipe belongs to: each has its own write end for the handlers to find.
    enum Slot: Sendable {
        case shutdown, hangup, reopen

        /// Claims the slot for `fd`; `false` when another pipe holds it.
        func claim(_ fd: Int32) -> Bool {
            switch self {
            case .shutdown: shutdownWriteEnd.compareExchange(expected: -1, desired: fd, ordering: .sequentiallyConsistent).exchanged
            case .hangup: hangupWriteEnd.compareExchange(expected: -1, desired: fd, ordering: .sequentiallyConsistent).exchanged
            case .reopen: reopenWriteEnd.compareExchange(expected: -1, desired: fd, ordering: .sequentiallyConsistent).exchanged
            }
        }

        /// Frees the slot: its handler writes nothing more.
        func release() {
            switch self {
            case .shutdown: shutdownWriteEnd.store(-1, ordering: .sequentiallyConsistent)
            case .hangup: hangupWriteEnd.store(-1, ordering: .sequentiallyConsistent)
            case .reopen: reopenWriteEnd.store(-1, ordering: .sequentiallyConsistent)
            }
        }

        /// The handler, which writes the signal's number to this slot's pipe.
        var handler: @convention(c) (Int32) -> Void {
            switch self {
            case .shutdown: return { SignalPipe.deliver($0, to: shutdownWriteEnd.load(ordering: .relaxed)) }
            case .hangup: return { SignalPipe.deliver($0, to: hangupWriteEnd.load(ordering: .relaxed)) }
            case .reopen: return { SignalPipe.deliver($0, to: reopenWriteEnd.load(ordering: .relaxed)) }
            }
        }
    }

    /// A signal's action before the pipe's handler replaced it.
    private struct SavedAction: @unchecked Sendable {
        let number: Int32
        let action: sigaction
    }

    let slot: Slot
    /// The end the watcher thread reads (blocking).
    let readEnd: Int32
    /// The end the handlers write (non-blocking).
    let writeEnd: Int32
    private let previous: [SavedAction]

    /// Creates the pipe and installs the handler for each of `signals`.
    /// - Parameter owner: the watcher's type name, for the error when its slot is taken.
    /// - Throws: ``CommandError`` `signal-handling` (exit 1): `cannot create the signal pipe: <errno text>`,
    ///   `another <owner> is already installed`, `cannot handle signal <n>: <errno text>` (nothing stays installed).
    init(_ signals: [Int32], slot: Slot, owner: String) throws(CommandError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw Self.error("cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        // The read end blocks (the watcher thread sleeps in read); the handlers' end must not.
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        guard slot.claim(fds[1]) else {
            close(fds[0])
            close(fds[1])
            throw Self.error("another \(owner) is already installed")
        }
        var saved: [SavedAction] = []
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = slot.handler
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            guard sigaction(number, &action, &old) == 0 else {
                let reason = String(cString: strerror(errno))
                Self.restore(saved)
                slot.release()
                close(fds[0])
                close(fds[1])
                throw Self.error("cannot handle signal \(number): \(reason)")
            }
            saved.append(SavedAction(number: number, action: old))
        }
        self.slot = slot
        readEnd = fds[0]
        writeEnd = fds[1]
        previous = saved
    }

    /// Restores the signals' previous actions and frees the slot (the handlers write nothing more). Call once.
    func uninstall() {
        Self.restore(previous)
        slot.release()
    }

    /// Writes the `0` byte that wakes the watcher thread to stop.
    func wake() {
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
    }

    /// The handlers' body: one byte, the signal's number, to `fd` (when installed); async-signal-safe.
    @inline(__always)
    static func deliver(_ number: Int32, to fd: Int32) {
        let savedErrno = errno
        if fd >= 0 {
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(fd, &byte, 1)
        }
        errno = savedErrno
    }

    private static func restore(_ saved: [SavedAction]) {
        for entry in saved {
            var action = entry.action
            sigaction(entry.number, &action, nil)
        }
    }

    private static func error(_ message: String) -> CommandError {
        CommandError(.signalHandling, message, exitCode: .failure)
    }
}
