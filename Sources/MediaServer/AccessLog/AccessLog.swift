import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The access log of `mediactl serve --access-log PATH|-` (docs/operations.md, "Access log"): one JSON
/// line per request, written off the request's critical path.
///
/// The answering thread only copies an ``AccessLogEntry`` into a bounded queue under a mutex
/// (``record(_:)``: its numbers and the bytes of its strings, ``AccessLogRecordCodec``; no formatting, no I/O,
/// no allocation once the queue buffer has grown, and no string shared with the writer thread). One writer
/// thread takes the whole queue every ``Configuration/writeInterval``, formats it with ``AccessLogFormat``
/// and writes it with one `write(2)`. When the queue holds ``Configuration/capacity`` entries, further
/// lines are dropped and counted (``droppedLines``) instead of making a request wait; lines lost to a failed
/// `write(2)` (disk full) are counted there too.
///
/// ``reopen()`` (on `SIGUSR1`) writes what is queued to the old file, then opens the path again, so
/// `logrotate`'s `create` + `postrotate kill -USR1` loses nothing. ``close()`` writes what is queued and
/// closes the file.
public final class AccessLog: Sendable {
    /// Tunables.
    public struct Configuration: Sendable, Hashable {
        /// Lines the queue holds before new ones are dropped. Default: 16,384 (a 100,000-request/s load
        /// queues 5,000 lines between two batches at the default interval).
        public var capacity: Int
        /// Bytes the queue holds before new lines are dropped (a line takes 84 bytes plus its strings: a
        /// typical hit about 200). Default: 8 MiB.
        public var capacityBytes: Int
        /// How long the writer sleeps between two batches. Default: 50 ms.
        public var writeInterval: Duration
        /// Whether a writer thread runs; without one only ``flush()``, ``reopen()`` and ``close()`` write
        /// (tests). Default: `true`.
        public var startsWriter: Bool

        public init(capacity: Int = 16_384, capacityBytes: Int = 8 << 20, writeInterval: Duration = .milliseconds(50),
                    startsWriter: Bool = true) {
            self.capacity = max(1, capacity)
            self.capacityBytes = max(4_096, capacityBytes)
            self.writeInterval = writeInterval
            self.startsWriter = startsWriter
        }
    }

    private struct Queue {
        /// The queued records (``AccessLogRecordCodec``).
        var buffer: AccessLogBuffer
        var nextID: UInt64 = 1
    }

    private struct Output {
        var file: AccessLogFile
        var spare: AccessLogBuffer
        var buffer: [UInt8] = []
        var state = AccessLogFormatState()
        var closed = false
    }

    /// The path given (`-` for standard output).
    public let path: String
    public let configuration: Configuration
    private let format: AccessLogFormat
    private let queue: Mutex<Queue>
    private let output: Mutex<Output>
    private let dropped = Atomic<Int>(0)
    private let written = Atomic<Int>(0)
    private let wake = DispatchSemaphore(value: 0)
    /// `CLOCK_REALTIME` minus `CLOCK_MONOTONIC`, µs, refreshed by every batch: a request's wall-clock time
    /// then costs one clock reading (``start()``).
    private let wallOffset = Atomic<Int64>(AccessLog.currentWallOffset())

    /// An access-log file opened ahead of its ``AccessLog`` (``open(path:)``), so `serve` can refuse an access log it
    /// cannot write before it opens the state directory and writes its start records, and opens the file once.
    public struct Destination: @unchecked Sendable {
        fileprivate let file: AccessLogFile
        /// The path given (`-`: standard output).
        public let path: String

        /// Closes the file, for a start that fails before the log is made (standard output stays open).
        public func close() { file.close() }
    }

    /// Opens `path` for appending (created 0640 when missing; `-`: standard output).
    /// - Throws: ``AccessLogError``: `cannot open access log 'PATH': <errno text>`.
    public static func open(path: String) throws(AccessLogError) -> Destination {
        Destination(file: try AccessLogFile(path: path), path: path)
    }

    /// Opens `path` (`-`: standard output) and starts the writer thread.
    /// - Throws: ``AccessLogError``: `cannot open access log 'PATH': <errno text>`.
    public convenience init(path: String, format: AccessLogFormat, configuration: Configuration = Configuration()) throws(AccessLogError) {
        self.init(destination: try Self.open(path: path), format: format, configuration: configuration)
    }

    /// Writes to `destination` (opened by ``open(path:)``) and starts the writer thread.
    public init(destination: Destination, format: AccessLogFormat, configuration: Configuration = Configuration()) {
        self.path = destination.path
        self.format = format
        self.configuration = configuration
        queue = Mutex(Queue(buffer: AccessLogBuffer(capacity: configuration.capacityBytes)))
        output = Mutex(Output(file: destination.file, spare: AccessLogBuffer(capacity: configuration.capacityBytes)))
        if configuration.startsWriter {
            let thread = Thread { [self] in runWriter() }
            thread.name = "mediactl-access-log"
            thread.start()
        }
    }

    /// Both readings for a request taken up now, from one monotonic clock reading (the wall-clock time is
    /// derived with the offset the writer refreshes every batch, so it follows clock adjustments within one).
    public func start() -> AccessLogStart {
        let monotonic = AccessLogStart.monotonicMicroseconds()
        return AccessLogStart(milliseconds: (monotonic + wallOffset.load(ordering: .relaxed)) / 1_000,
                              monotonicMicroseconds: monotonic)
    }

    static func currentWallOffset() -> Int64 {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return Int64(wall.tv_sec) * 1_000_000 + Int64(wall.tv_nsec) / 1_000 - AccessLogStart.monotonicMicroseconds()
    }

    /// Queues one line; assigns ``AccessLogEntry/id``. Never blocks on I/O: when the queue is full the
    /// line is dropped and counted.
    public func record(_ entry: AccessLogEntry) {
        record(AccessLogRecordCodec.Fields(
            milliseconds: entry.milliseconds, status: entry.status, bytes: entry.bytes,
            durationMicroseconds: entry.durationMicroseconds, originStatus: entry.originStatus,
            originMicroseconds: entry.originMicroseconds),
            strings: (entry.method, entry.target, entry.route, entry.tier, entry.cacheStatus, entry.variant, entry.partition,
                      entry.requestID))
    }

    /// ``record(_:)`` from borrowed parts (the handler's hit path: no ``AccessLogEntry`` is built); `strings` are
    /// method, target, route, tier, cache status, variant, partition, request id.
    func record(_ fields: AccessLogRecordCodec.Fields,
                strings: (String?, String?, String?, String?, String?, String?, String?, String?)) {
        let size = AccessLogRecordCodec.size(strings)
        let capacity = configuration.capacity
        let kept = queue.withLock { queue -> Bool in
            let id = queue.nextID
            queue.nextID &+= 1
            let buffer = queue.buffer
            guard buffer.count < capacity, buffer.used + size <= buffer.capacity else { return false }
            AccessLogRecordCodec.encode(fields, id: id, strings: strings, into: buffer.base + buffer.used)
            buffer.used += size
            buffer.count += 1
            return true
        }
        if !kept { dropped.add(1, ordering: .relaxed) }
    }

    /// Writes every queued line now, on the calling thread.
    public func flush() {
        output.withLock { drain(&$0) }
    }

    /// Writes the queued lines to the current file, then opens ``path`` again (standard output: only the
    /// write). On failure the previous file stays in use.
    /// - Throws: ``AccessLogError``: `cannot open access log 'PATH': <errno text>`.
    public func reopen() throws(AccessLogError) {
        try output.withLock { (output: inout Output) throws(AccessLogError) in
            drain(&output)
            guard !output.closed else { return }
            try output.file.reopen()
        }
    }

    /// Writes the queued lines, closes the file and stops the writer thread. Lines recorded later are
    /// never written. Idempotent.
    public func close() {
        output.withLock { output in
            drain(&output)
            output.closed = true
            output.file.close()
        }
        wake.signal()
    }

    /// Lines dropped so far: the queue was full, or `write(2)` failed.
    public var droppedLines: Int { dropped.load(ordering: .relaxed) }
    /// Lines written so far.
    public var writtenLines: Int { written.load(ordering: .relaxed) }

    /// `mediactl_access_log_lines_total` and `mediactl_access_log_dropped_total` in the Prometheus text
    /// format 0.0.4, for `GET /_mediactl/metrics`.
    public var metricsText: String {
        "# HELP mediactl_access_log_lines_total Access-log lines written.\n"
            + "# TYPE mediactl_access_log_lines_total counter\nmediactl_access_log_lines_total \(writtenLines)\n"
            + "# HELP mediactl_access_log_dropped_total Access-log lines dropped (queue full or write failed).\n"
            + "# TYPE mediactl_access_log_dropped_total counter\nmediactl_access_log_dropped_total \(droppedLines)\n"
    }

    private func runWriter() {
        let interval = configuration.writeInterval
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        while true {
            _ = wake.wait(timeout: .now() + .nanoseconds(max(1, nanoseconds)))
            let closed = output.withLock { output -> Bool in
                drain(&output)
                return output.closed
            }
            if closed { return }
        }
    }

    /// Takes the whole queue (swapping in the spare buffer), formats it and writes it in one call.
    private func drain(_ output: inout Output) {
        guard !output.closed else { return }
        wallOffset.store(Self.currentWallOffset(), ordering: .relaxed)
        let batch = output.spare
        output.spare = queue.withLock { queue -> AccessLogBuffer in
            defer { queue.buffer = batch }
            return queue.buffer
        }
        let taken = output.spare
        defer { taken.reset() }
        let count = taken.count
        guard count > 0 else { return }
        output.buffer.removeAll(keepingCapacity: true)
        AccessLogRecordCodec.forEach(in: taken.bytes) { format.append($0, to: &output.buffer, state: &output.state) }
        if output.file.write(output.buffer) {
            written.add(count, ordering: .relaxed)
        } else {
            dropped.add(count, ordering: .relaxed)
        }
    }
}
