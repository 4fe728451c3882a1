import Synchronization
import Testing
@testable import MediaTransform

extension LibvipsTests {
    @Suite struct DeadlineTests {
        @Test func aDeadlineAlreadyPastThrowsBeforeTheFirstStep() throws {
            let error = #expect(throws: TransformError.self) {
                try ImageTransformer.derive(
                    try Fixtures.bytes("large/hubble-1000.jpg"), spec: VariantSpec(width: 144, quality: 80, format: .source),
                    declared: [.jpeg], limits: TransformLimits(), deadline: .now - .seconds(1))
            }
            #expect(error == TransformError(.deadlineExceeded, "deadline passed before sniff"))
        }

        /// The deadline is checked before every step, not only the first: a step that takes the clock
        /// past it stops the pipeline before the next.
        @Test func theDeadlineIsCheckedBetweenSteps() throws {
            final class FakeClock: Sendable {
                let instant = Mutex(ContinuousClock.now)
                var now: ContinuousClock.Instant { instant.withLock { $0 } }
            }
            struct Advance: TransformStep {
                var name: String { "advance" }
                let clock: FakeClock
                func run(_ context: TransformContext) throws(TransformError) { clock.instant.withLock { $0 += .seconds(10) } }
            }
            let clock = FakeClock()
            let deadline = clock.now + .seconds(5)
            let source = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
            let (error, format): (TransformError?, SourceFormat?) = source.withUnsafeBytes { raw in
                let context = TransformContext(source: raw, spec: VariantSpec(width: 64, quality: 80, format: .source),
                                               declared: [.jpeg], limits: TransformLimits())
                let pipeline = TransformPipeline(steps: [SniffStep(), Advance(clock: clock), SourceLimitStep()])
                do throws(TransformError) {
                    try pipeline.run(context, deadline: deadline, now: { clock.now })
                    return (nil, context.sourceFormat)
                } catch {
                    return (error, context.sourceFormat)
                }
            }
            #expect(format == .jpeg)
            #expect(error == TransformError(.deadlineExceeded, "deadline passed before source-limit"))
        }

        @Test func aFarDeadlineIsMet() throws {
            let out = try ImageTransformer.derive(
                try Fixtures.bytes("catalog/horse-d29d871c.jpg"), spec: VariantSpec(width: 64, quality: 80, format: .source),
                declared: [.jpeg], limits: TransformLimits(), deadline: .now + .seconds(600))
            #expect((out.width, out.height) == (64, 64))
        }
    }
}
