/// The declaration of one long option of a command: `--name`, `--name VALUE` or `--name=VALUE`.
public struct OptionSpec: Sendable, Hashable {
    /// The name without the leading dashes, such as `"state-dir"`.
    public let name: String
    /// The placeholder of the value in help (`"DIR"`, `"ROUTE=URL"`), or `nil` for a flag that
    /// takes no value.
    public let valueName: String?
    /// Whether the option may be given more than once (values kept in order). Default: `false`.
    public let isRepeatable: Bool
    /// One line of help, stating the default when there is one.
    public let help: String

    /// Declares an option; `valueName == nil` makes it a flag.
    public init(_ name: String, valueName: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.valueName = valueName
        self.isRepeatable = repeatable
        self.help = help
    }

    /// Whether the option is a flag (takes no value).
    public var isFlag: Bool { valueName == nil }

    /// The option as typed: `"--state-dir"`.
    public var flag: String { "--" + name }

    /// The option with its placeholder as shown in help: `"--state-dir DIR"`.
    public var synopsis: String {
        guard let valueName else { return flag }
        return flag + " " + valueName
    }
}
