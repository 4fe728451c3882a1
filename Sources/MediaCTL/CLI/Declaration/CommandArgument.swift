/// One option or positional argument of a ``MediaCommand``, declared once: what the parser accepts, what
/// help and usage show (``CommandSpec/Argument``), and how its value is written into the command, bound by
/// key path.
///
/// Arguments are applied in declaration order, so the first invalid one is the one reported; then the rules
/// across options (``OptionGroup``, ``needs(_:)``) are checked. A ``ArgumentInput`` with no value leaves the
/// property at the default of ``CommandDeclaration/defaults``.
public struct CommandArgument<Command: MediaCommand>: Sendable {
    /// What the argument is on the command line.
    private(set) var kind: CommandSpec.Argument
    /// The default shown in help, read from the command at its defaults; `nil`: none shown.
    let shownDefault: (@Sendable (Command) -> String)?
    /// Reads the value from the command line and writes it into the command.
    let apply: @Sendable (inout Command, ArgumentInput) throws(UsageError) -> Void

    /// The most general declaration: `read` turns the input into the value, or `nil` to keep the default.
    ///
    /// - Parameters:
    ///   - name: the long name without dashes (`"state-dir"`).
    ///   - valueName: the placeholder in help (`"DIR"`); `nil` declares a flag.
    ///   - repeatable: whether the option may be given more than once (values kept in order). Default: `false`.
    ///   - required: whether the command refuses to run without it. Default: `false`.
    ///   - help: one line of help; it states the default in words unless `showing` does.
    ///   - showing: how help shows the property's default value (`Default: VALUE.`); `nil`, or a required option:
    ///     none shown.
    public static func option<Value>(
        _ name: String, valueName: String?, repeatable: Bool = false, required: Bool = false, help: String,
        _ keyPath: WritableKeyPath<Command, Value>, showing: (@Sendable (Value) -> String)? = nil,
        read: @escaping @Sendable (ArgumentInput) throws(UsageError) -> Value?
    ) -> Self {
        let spec = OptionSpec(name, valueName: valueName, repeatable: repeatable, required: required, help: help)
        nonisolated(unsafe) let path = keyPath
        var shown: (@Sendable (Command) -> String)?
        if !required, let showing {
            shown = { command in showing(command[keyPath: path]) }
        }
        return Self(kind: .option(spec), shownDefault: shown) { command, input throws(UsageError) in
            if let value = try read(input) { command[keyPath: path] = value }
        }
    }

    /// A positional argument; `read` turns the word into the value (`nil`: keep the default).
    public static func positional<Value>(
        _ name: String, required: Bool = true, help: String, _ keyPath: WritableKeyPath<Command, Value>,
        read: @escaping @Sendable (ArgumentInput) throws(UsageError) -> Value?
    ) -> Self {
        nonisolated(unsafe) let path = keyPath
        return Self(kind: .positional(PositionalSpec(name, required: required, help: help)), shownDefault: nil) {
            command, input throws(UsageError) in
            if let value = try read(input) { command[keyPath: path] = value }
        }
    }

    /// This option as a member of `group`: at most one member (exactly one when the group is required) may be
    /// given. No effect on a positional.
    public func oneOf(_ group: OptionGroup) -> Self {
        changingOption { $0.group = group }
    }

    /// This option, refused unless option `name` (without dashes) is given too: `option --soft needs --tag`.
    /// No effect on a positional.
    public func needs(_ name: String) -> Self {
        changingOption { $0.needs = name }
    }

    private func changingOption(_ change: (inout OptionSpec) -> Void) -> Self {
        var copy = self
        if case .option(var spec) = kind {
            change(&spec)
            copy.kind = .option(spec)
        }
        return copy
    }
}
