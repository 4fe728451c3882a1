import Synchronization

/// An ``OutputSink`` that keeps everything written to it in memory, for tests and for callers
/// that post-process a command's output.
public final class CapturedOutput: OutputSink {
    private let storage = Mutex<[UInt8]>([])

    /// An empty capture.
    public init() {}

    public func write(bytes: [UInt8]) {
        storage.withLock { $0.append(contentsOf: bytes) }
    }

    /// Every byte written so far, in order.
    public var bytes: [UInt8] {
        storage.withLock { $0 }
    }

    /// Everything written so far, decoded as UTF-8 (invalid sequences become U+FFFD).
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
