import Foundation
import Glibc
import MediaCore
import MediaTransform
import Synchronization
import Testing
@testable import MediaService

/// The bounded transform pool: jobs run off the caller, past the queue limit they are refused at once.
@Suite struct TransformWorkersTests {
    @Test func runsJobsOnItsOwnThreads() async throws {
        // Room for every job submitted at once: a worker that has just resumed its caller still counts as busy
        // for a moment, so six jobs against 2 workers + 4 waiting could meet a refusal (tested on its own below).
        let pool = TransformWorkers(name: "tw", configuration: .init(workers: 2, queueLimit: 8))
        let caller = pthread_self()
        let worker = try await pool.run { pthread_self() }
        #expect(pthread_equal(caller, worker) == 0)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<6 { group.addTask { try await pool.run { value * 2 } } }
            var out: [Int] = []
            for try await value in group { out.append(value) }
            return out.sorted()
        }
        #expect(results == [0, 2, 4, 6, 8, 10])
    }

    @Test func refusesPastTheQueueLimitWhileEveryWorkerIsBusy() async throws {
        let pool = TransformWorkers(name: "test-full", configuration: .init(workers: 1, queueLimit: 1))
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        async let busy: Int = pool.run { started.signal(); release.wait(); return 1 }
        // The single worker is running the first job.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { started.wait(); done.resume() }
        }
        async let queued: Int = pool.run { 2 }
        // Wait until the second job is queued, then a third is refused at once.
        while pool.waiting < 1 { await Task.yield() }
        await #expect(throws: TransformWorkers.Refusal.queueFull) { try await pool.run { 3 } }
        release.signal()
        #expect(try await busy == 1)
        #expect(try await queued == 2)
    }

    /// A queued job whose client went away (ClientPresence) is dropped when a worker reaches it: it never runs, its
    /// caller gets CancellationError, and the worker goes on with the next job. A job whose client is still there runs.
    @Test func aQueuedJobOfAClientThatLeftIsDropped() async throws {
        let pool = TransformWorkers(name: "test-gone", configuration: .init(workers: 1, queueLimit: 4))
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        final class Runs: Sendable { let count = Atomic<Int>(0) }
        let ran = Runs()
        async let busy: Int = pool.run { started.signal(); release.wait(); return 1 }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { started.wait(); done.resume() }
        }
        let gone = ClientPresence(), present = ClientPresence()
        async let dropped: Int = ClientPresence.$current.withValue(gone) {
            try await pool.run { ran.count.add(1, ordering: .relaxed); return 2 }
        }
        while pool.waiting < 1 { await Task.yield() }
        async let kept: Int = ClientPresence.$current.withValue(present) {
            try await pool.run { ran.count.add(1, ordering: .relaxed); return 3 }
        }
        while pool.waiting < 2 { await Task.yield() }
        gone.markGone()
        release.signal()
        #expect(try await busy == 1)
        do {
            _ = try await dropped
            Issue.record("the job of a client that left ran")
        } catch {
            #expect(error is CancellationError)
        }
        #expect(try await kept == 3)
        #expect(ran.count.load(ordering: .relaxed) == 1)
        #expect(pool.waiting == 0)
        // The pool is whole: a later job runs at once.
        #expect(try await pool.run { 4 } == 4)
    }
}

/// Which pool a transform runs on: AVIF, large boxes and the rest apart.
@Suite struct TransformPoolChoiceTests {
    @Test func avifLargeAndOrdinaryTransformsRunOnTheirOwnPools() {
        let transforms = TransformConfiguration(workers: 2, queueLimit: 8, avifWorkers: 1, timeout: 10)
        func pool(_ spec: VariantSpec) -> (String, Int) {
            let workers = ImageDerivation.workers(for: spec, transforms)
            return (workers.name, workers.configuration.workers)
        }
        #expect(pool(VariantSpec(width: 144, quality: 80, format: .source)) == ("transform", 2))
        #expect(pool(VariantSpec(width: 576, quality: 80, format: .format(.webp))) == ("transform", 2))
        #expect(pool(VariantSpec(width: 1152, quality: 80, format: .source)) == ("transform-large", 1))
        #expect(pool(VariantSpec(width: 1152, height: 288, fit: .cover, quality: 80, format: .format(.jpeg))) == ("transform", 2))
        #expect(pool(VariantSpec(width: 288, quality: 80, format: .format(.avif))) == ("transform-avif", 1))
    }
}
