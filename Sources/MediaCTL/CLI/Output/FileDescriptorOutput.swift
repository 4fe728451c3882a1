#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ``OutputSink`` writing straight to a file descriptor with `write(2)`, unbuffered.
///
/// Partial writes are continued and `EINTR` is retried; any other error (such as `EPIPE`) drops
/// the rest of that write. The descriptor is neither owned nor closed.
public struct FileDescriptorOutput: OutputSink {
    /// The descriptor written to.
    public let fileDescriptor: Int32

    /// Writes to `fileDescriptor`, which stays owned by the caller.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// The process's standard output (descriptor 1).
    public static let standardOutput = FileDescriptorOutput(fileDescriptor: 1)
    /// The process's standard error (descriptor 2).
    public static let standardError = FileDescriptorOutput(fileDescriptor: 2)

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard var base = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                #if canImport(Glibc)
                    let written = Glibc.write(fileDescriptor, base, remaining)
                #else
                    let written = Darwin.write(fileDescriptor, base, remaining)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                remaining -= written
                base += written
            }
        }
    }
}
