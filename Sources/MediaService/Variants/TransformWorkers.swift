import Foundation
import Synchronization

/// A bounded pool of threads that run image transforms off the event loops and the cooperative pool
/// (a 40 ms decode there would stall every connection of a loop). Jobs beyond ``Configuration/queueLimit``
/// waiting at once are refused at once (`503` with `Retry-After`, docs/variants.md) instead of queueing
/// without bound. Threads are started on the first job and live for the process, shared by every service
/// of the process that uses the same pool.
final class TransformWorkers: Sendable {
    struct Configuration: Sendable, Hashable {
        /// Worker threads. Default: one per CPU.
        var workers: Int
        /// Most jobs waiting for a worker at once; more are refused. Default: 64.
        var queueLimit: Int

        init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 64) {
            self.workers = max(1, workers)
            self.queueLimit = max(0, queueLimit)
        }
    }

    /// Why a job did not run.
    enum Refusal: Error, Sendable, Hashable {
        /// ``Configuration/queueLimit`` jobs were already waiting.
        case queueFull
    }

    private struct State {
        /// Jobs in arrival order; a taken job's slot is cleared at once (its captured source bytes freed).
        var queue: [(@Sendable () -> Void)?] = []
        var head = 0
        var started = false
        var running = 0
        var waiting: Int { queue.count - head }
    }

    let configuration: Configuration
    let name: String
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init(name: String, configuration: Configuration = Configuration()) {
        self.name = name
        self.configuration = configuration
    }

    /// Jobs waiting for a worker now.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Runs `work` on a worker thread and returns its result.
    /// - Throws: ``Refusal/queueFull`` at once when ``Configuration/queueLimit`` jobs are waiting.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let (accepted, start) = state.withLock { state -> (Bool, Bool) in
                guard state.waiting < configuration.queueLimit + max(0, configuration.workers - state.running) else {
                    return (false, false)
                }
                // The slot is free before the caller resumes: a caller that awaited this job finds the pool idle.
                state.queue.append { [self] in
                    let value = work()
                    self.state.withLock { $0.running -= 1 }
                    continuation.resume(returning: value)
                }
                let start = !state.started
                state.started = true
                return (true, start)
            }
            guard accepted else {
                continuation.resume(throwing: Refusal.queueFull)
                return
            }
            if start { startThreads() }
            wake.signal()
        }
    }

    private func startThreads() {
        for index in 0..<configuration.workers {
            let thread = Thread { [self] in loop() }
            thread.name = "\(name)-\(index + 1)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func loop() {
        while true {
            wake.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.head < state.queue.count else { return nil }
                let job = state.queue[state.head]
                state.queue[state.head] = nil
                state.head += 1
                if state.head > 64, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                state.running += 1
                return job
            }
            guard let job else { continue }
            job()   // frees its slot (running -= 1) before resuming its caller
        }
    }
}

extension TransformWorkers {
    private static let registry = Mutex<[String: TransformWorkers]>([:])

    /// The process's pool named `name` with `configuration` (one per distinct pair, so services and tests
    /// that ask for the same pool share its threads).
    static func shared(_ name: String, _ configuration: Configuration) -> TransformWorkers {
        let key = "\(name)/\(configuration.workers)/\(configuration.queueLimit)"
        return registry.withLock { pools in
            if let pool = pools[key] { return pool }
            let pool = TransformWorkers(name: name, configuration: configuration)
            pools[key] = pool
            return pool
        }
    }
}
