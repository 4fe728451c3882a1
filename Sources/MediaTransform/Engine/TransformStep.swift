/// One named stage of a transform (one per file under `Steps/`). A step reads and updates the
/// shared ``TransformContext``; it throws to stop the transform.
protocol TransformStep: Sendable {
    /// The step's name in errors and timings, e.g. `scale-on-load`.
    var name: String { get }

    /// - Throws: ``TransformError`` with the step's own code (each step documents which).
    func run(_ context: TransformContext) throws(TransformError)
}
