import Foundation
import MediaCore
import Synchronization

/// A bounded pool of threads that run image transforms off the event loops and the cooperative pool
/// (a 40 ms decode there would stall every connection of a loop). Jobs beyond ``Configuration/queueLimit``
/// waiting at once are refused at once (`503` with `Retry-After`, docs/variants.md) instead of queueing
/// without bound. A job whose client went away before a worker took it (``MediaCore/ClientPresence``) is dropped;
/// one already running finishes. Threads are started on the first job and live for the process, shared by every
/// service of the process that uses the same pool.
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

    /// A queued job: `run` does the work and resumes its caller; `drop` resumes it with `CancellationError` (its
    /// client went away). The worker that takes it calls one of them.
    private struct Job {
        let presence: ClientPresence?
        let run: @Sendable () -> Void
        let drop: @Sendable () -> Void
    }

    private struct State {
        /// Jobs in arrival order; a taken job's slot is cleared at once (its captured source bytes freed).
        var queue: [Job?] = []
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
    /// - Throws: ``Refusal/queueFull`` at once when ``Configuration/queueLimit`` jobs are waiting;
    ///   `CancellationError` when the request's client went away (``MediaCore/ClientPresence``) before a worker took
    ///   the job: it is dropped, never run.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let presence = ClientPresence.current
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let (accepted, start) = state.withLock { state -> (Bool, Bool) in
                guard state.waiting < configuration.queueLimit + max(0, configuration.workers - state.running) else {
                    return (false, false)
                }
                // The slot is free before the caller resumes: a caller that awaited this job finds the pool idle.
                state.queue.append(Job(presence: presence, run: { [self] in
                    let value = work()
                    self.state.withLock { $0.running -= 1 }
                    continuation.resume(returning: value)
                }, drop: { continuation.resume(throwing: CancellationError()) }))
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
            let taken = state.withLock { state -> (job: Job, gone: Bool)? in
                guard state.head < state.queue.count, let job = state.queue[state.head] else { return nil }
                state.queue[state.head] = nil
                state.head += 1
                if state.head > 64, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                // Read once: the transform of a client that leaves after this runs to its end.
                let gone = job.presence?.isGone == true
                if !gone { state.running += 1 }
                return (job, gone)
            }
            guard let (job, gone) = taken else { continue }
            if gone {
                job.drop()
                continue
            }
            job.run()   // frees its slot (running -= 1) before resuming its caller
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
