import Foundation

/// Tunables of derived images (docs/variants.md, "Safety").
public struct TransformConfiguration: Sendable, Hashable {
    /// Transform threads. Default: one per CPU.
    public var workers: Int
    /// Transforms waiting for a thread at once before more are refused (`503` `transform-queue-full`
    /// with `Retry-After: 1`). Default: 64.
    public var queueLimit: Int
    /// Threads of their own for AVIF encodes (about 350 ms of CPU for a 500-px image, 7–17× a JPEG), so
    /// AVIF never takes more than this share of the machine. Default: half the CPUs, at least 1.
    public var avifWorkers: Int
    /// Threads of their own for JPEG XL encodes (libjxl holds about 60 MB more than the decode for a 1152×1152
    /// image at effort 4), so at most this many run at once. Default: 1.
    public var jxlWorkers: Int
    /// Seconds a transform may take, queueing included, checked between its steps (`503`
    /// `transform-timeout` past it). Default: 10.
    public var timeout: Double
    /// Output boxes (width × height, or width² without a height) above this many pixels run one at a time on a
    /// thread of their own: each holds about 18–21 MiB while it decodes (docs/benchmarks.md, "Derived images",
    /// goal (d)). Default: 1,000,000 (576×576 runs on the general pool, 1152×1152 does not).
    public var largeOutputPixels: Int

    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 64,
                avifWorkers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2), timeout: Double = 10,
                largeOutputPixels: Int = 1_000_000, jxlWorkers: Int = 1) {
        self.jxlWorkers = max(1, jxlWorkers)
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.avifWorkers = max(1, avifWorkers)
        self.timeout = timeout
        self.largeOutputPixels = max(1, largeOutputPixels)
    }
}
