import Glibc
import MediaAudit
import Synchronization

/// An ``AuditFileWriting`` that fails while ``fault`` is set, as a full, immutable or failing disk does: it
/// throws ``AuditError/Code/io`` with the fault's `errno`, after writing the fault's first `partialBytes` (a torn
/// write). Counts its calls, so a test sees which appends reached the file.
final class FailingFileWriter: AuditFileWriting {
    struct Fault: Sendable {
        var errno: Int32
        var partialBytes = 0
    }

    let fault = Mutex<Fault?>(nil)
    private let callCount = Atomic<Int>(0)

    var calls: Int { callCount.load(ordering: .relaxed) }

    func fail(_ errno: Int32, partialBytes: Int = 0) { fault.withLock { $0 = Fault(errno: errno, partialBytes: partialBytes) } }
    func heal() { fault.withLock { $0 = nil } }

    func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        callCount.add(1, ordering: .relaxed)
        guard let fault = fault.withLock({ $0 }) else { return try SystemAuditFileWriter().write(fd, bytes, path: path) }
        if fault.partialBytes > 0 { try SystemAuditFileWriter().write(fd, Array(bytes.prefix(fault.partialBytes)), path: path) }
        throw AuditError(.io, "write \(path): \(String(cString: strerror(fault.errno))) (errno \(fault.errno))",
                         errno: fault.errno, operation: "write \(path)")
    }
}

/// An ``AuditRetryScheduling`` fired by hand: it keeps the delays asked for and the work, and ``fire()`` runs
/// what is pending (never what that work schedules), so no test sleeps.
final class ManualRetryScheduler: AuditRetryScheduling {
    private struct State {
        var delays: [Int64] = []
        var pending: [@Sendable () -> Void] = []
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Every delay asked for so far, in milliseconds.
    var delays: [Int64] { state.withLock { $0.delays } }
    /// Work scheduled and not run yet.
    var pendingCount: Int { state.withLock { $0.pending.count } }
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func schedule(after milliseconds: Int64, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.delays.append(milliseconds)
            state.pending.append(work)
        }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.pending = []
        }
    }

    /// Runs the work pending now.
    func fire() {
        let work = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.pending = [] }
            return state.pending
        }
        for item in work { item() }
    }
}

/// The events a ``RecoveringAuditLog`` reported, in order.
final class WriterEvents: Sendable {
    private let list = Mutex<[AuditWriterEvent]>([])
    var all: [AuditWriterEvent] { list.withLock { $0 } }
    var handler: @Sendable (AuditWriterEvent) -> Void { { [self] event in list.withLock { $0.append(event) } } }
}
