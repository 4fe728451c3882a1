/// The declaration of one positional argument of a command, such as `PATH` of `mediactl fetch`.
public struct PositionalSpec: Sendable, Hashable {
    /// The placeholder shown in usage and in errors: `"PATH"`.
    public let name: String
    /// Whether the argument must be given. Default: `true`.
    public let isRequired: Bool
    /// One line of help.
    public let help: String

    public init(_ name: String, required: Bool = true, help: String) {
        self.name = name
        self.isRequired = required
        self.help = help
    }
}
