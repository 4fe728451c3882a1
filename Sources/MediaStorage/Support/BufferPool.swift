import Synchronization

/// Reusable read buffers, so a large read does not page-fault a fresh allocation every time
/// (each fresh 1 MiB array costs ~256 zero-filled page faults). Holds at most ``limit`` buffers of
/// at most ``maximumByteCount`` bytes; larger requests get a temporary buffer.
final class BufferPool: Sendable {
    private struct Buffer: @unchecked Sendable {
        let memory: UnsafeMutableRawBufferPointer
    }

    private let free = Mutex<[Buffer]>([])
    let limit: Int
    let maximumByteCount: Int

    init(limit: Int = 4, maximumByteCount: Int = 8 << 20) {
        self.limit = limit
        self.maximumByteCount = maximumByteCount
    }

    deinit {
        free.withLock { buffers in for buffer in buffers { buffer.memory.deallocate() } }
    }

    /// Calls `body` with a buffer of at least `count` bytes (contents undefined).
    func withBuffer<R>(count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        let reused: Buffer? = count > maximumByteCount ? nil : free.withLock { buffers in
            guard let index = buffers.firstIndex(where: { $0.memory.count >= count }) ?? buffers.indices.last else { return nil }
            return buffers.remove(at: index)
        }
        var buffer = reused ?? Buffer(memory: .allocate(byteCount: max(count, 1), alignment: 16))
        if buffer.memory.count < count {
            buffer.memory.deallocate()
            buffer = Buffer(memory: .allocate(byteCount: count, alignment: 16))
        }
        defer {
            let kept = buffer.memory.count <= maximumByteCount && free.withLock { buffers in
                guard buffers.count < limit else { return false }
                buffers.append(buffer)
                return true
            }
            if !kept { buffer.memory.deallocate() }
        }
        return try body(UnsafeMutableRawBufferPointer(rebasing: buffer.memory[0..<count]))
    }
}
