/// The options of `mediactl demo`.
public struct DemoOptions: Sendable, Hashable {
    /// `--keep-serving`: keep the service running after the walkthrough. Default: `false`.
    public var keepServing: Bool

    public init(keepServing: Bool = false) {
        self.keepServing = keepServing
    }

    init(_ parsed: ParsedArguments) {
        self.init(keepServing: parsed.flag("keep-serving"))
    }
}
