/// The declaration of one long option of a command: `--name`, `--name VALUE` or `--name=VALUE`.
public struct OptionSpec: Sendable, Hashable {
    /// The name without the leading dashes, such as `"state-dir"`.
    public let name: String
    /// The placeholder of the value in help (`"DIR"`, `"ROUTE=URL"`), or `nil` for a flag that
    /// takes no value.
    public let valueName: String?
    /// Whether the option may be given more than once (values kept in order). Default: `false`.
    public let isRepeatable: Bool
    /// Whether the command refuses to run without it (`<command> requires --name VALUE`). Default: `false`.
    public let isRequired: Bool
    /// One line of help, stating the default when there is one.
    public let help: String
    /// The group of options of which at most one (or exactly one) may be given; `nil`: none.
    public internal(set) var group: OptionGroup?
    /// The default help shows after the help line (`Default: VALUE.`), read from the property of a command at its
    /// defaults; `nil` when the help line says it in words, or there is none.
    public internal(set) var defaultValue: String?
    /// The name of the option this one only works with (`soft` needs `tag`); `nil`: none. Usage shows it
    /// right after that option, as `--tag T [--soft]`.
    public internal(set) var needs: String?

    /// Declares an option; `valueName == nil` makes it a flag.
    public init(
        _ name: String, valueName: String? = nil, repeatable: Bool = false, required: Bool = false, help: String
    ) {
        self.name = name
        self.valueName = valueName
        self.isRepeatable = repeatable
        self.isRequired = required
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
