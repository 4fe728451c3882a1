import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaTestSupport
import Testing
@testable import MediaService

/// A queued transform whose client went away is dropped (docs/variants.md "Safety"): the request is logged `499`,
/// nothing is derived or stored for it, and the next request for the variant derives it as usual.
@Suite struct AbandonedTransformTests {
    @Test func aQueuedTransformOfAClientThatLeftIsDroppedAndNothingStored() async throws {
        // A pool of its own (one worker, queue limit 9), kept busy by a job of the test's.
        let transforms = TransformConfiguration(workers: 1, queueLimit: 9)
        let harness = try VariantHarness.make(transforms: transforms)
        let pool = TransformWorkers.shared("transform", .init(workers: 1, queueLimit: 9))
        _ = await harness.get("/large/hubble-1000.jpg")  // the source, stored
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        async let busy: Int = pool.run { started.signal(); release.wait(); return 1 }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { started.wait(); done.resume() }
        }
        let presence = ClientPresence()
        async let abandoned = ClientPresence.$current.withValue(presence) {
            await harness.get("/large/hubble-1000.jpg?w=144")
        }
        while pool.waiting < 1 { await Task.yield() }
        presence.markGone()
        release.signal()
        #expect(try await busy == 1)
        let answer = await abandoned
        #expect(answer.status == 499)
        #expect(answer.outcome.storage == .notStored)
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""code":"client-closed-request""#))
        #expect(try harness.auditRecords().filter { $0.event == .store }.compactMap { $0.transform?.rawValue } == [])
        // The next request derives and stores it.
        let next = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(next.status == 200)
        #expect(next.fields["Cache-Status"] == "mediactl; ttl=3600; stored; detail=disk")
        #expect(try harness.auditRecords().filter { $0.event == .store }.compactMap { $0.transform?.rawValue }
            == ["w=144,fit=inside,fmt=jpeg,q=80"])
        await harness.close()
    }
}
