import Glibc
import MediaAudit
import MediaTestSupport
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

/// The events a ``RecoveringAuditLog`` reported, in order.
final class WriterEvents: Sendable {
    private let list = Mutex<[AuditWriterEvent]>([])
    var all: [AuditWriterEvent] { list.withLock { $0 } }
    var handler: @Sendable (AuditWriterEvent) -> Void { { [self] event in list.withLock { $0.append(event) } } }
}

/// A ``RecoveringAuditLog`` over a real ``AuditLog`` in a temporary folder whose file writes go through `writer`, on a
/// test clock and a manual retry scheduler, its writer events collected.
struct RecoveringWorld<Writer: AuditFileWriting> {
    let dir = TempDirectory()
    let clock = TestClock()
    let writer: Writer
    let scheduler = ManualRetryScheduler()
    let events = WriterEvents()
    let log: AuditLog
    let recovering: RecoveringAuditLog

    init(writer: Writer) throws {
        self.writer = writer
        log = try AuditLog(stateDirectory: dir.path, configuration: .init(syncsInBackground: false), clock: clock.clock,
                           writer: writer)
        recovering = RecoveringAuditLog(log, clock: clock.clock, scheduler: scheduler, onEvent: events.handler)
    }

    func close() {
        recovering.close()
        try? log.close()
        dir.cleanup()
    }
}
