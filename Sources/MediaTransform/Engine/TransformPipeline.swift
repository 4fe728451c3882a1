/// An ordered list of steps run over one context, the deadline checked before each.
struct TransformPipeline: Sendable {
    let steps: [any TransformStep]

    /// What ``ImageTransformer/derive(_:spec:declared:limits:deadline:)`` runs: refuse what is not a
    /// supported format or is too large before anything is decoded, pick the output format, decode
    /// straight to the output size, make it plain sRGB, flatten it when the format has no alpha,
    /// remove every metadata field and encode.
    static let standard = TransformPipeline(steps: [
        SniffStep(),
        SourceLimitStep(),
        FormatStep(),
        AnimationStep(),
        ScaleOnLoadStep(),
        DecodeStep(),
        ColourStep(),
        FlattenStep(),
        StripStep(),
        EncodeStep(),
    ])

    /// Runs every step in order.
    /// - Throws: `deadline-exceeded` when `deadline` has passed before a step starts (a step
    ///   already running is not interrupted; a finished output is returned even if late), else the
    ///   first step's error.
    /// - Parameter now: The clock read before each step (tests substitute their own).
    func run(_ context: TransformContext, deadline: ContinuousClock.Instant?,
             now: () -> ContinuousClock.Instant = { .now }) throws(TransformError) {
        VipsRuntime.start()
        for step in steps {
            if let deadline, now() >= deadline {
                throw TransformError(.deadlineExceeded, "deadline passed before \(step.name)")
            }
            try step.run(context)
        }
    }
}
