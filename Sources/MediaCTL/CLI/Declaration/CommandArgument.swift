/// One option or positional argument of a ``MediaCommand``, declared once: what the parser accepts and
/// help shows (``OptionSpec`` or ``PositionalSpec``), and how its value is written into the command, bound by
/// key path.
///
/// Arguments are applied in declaration order, so the first invalid one is the one reported. A
/// ``ArgumentInput`` with no value leaves the property at the default of ``CommandDeclaration/defaults``.
///
/// `@unchecked Sendable`: the stored key path is immutable and key paths are safe to share; the standard
/// library only lacks the annotation for `AnyKeyPath`.
public struct CommandArgument<Command: MediaCommand>: @unchecked Sendable {
    /// What the argument is on the command line.
    enum Kind: Hashable {
        /// `--name [VALUE]`; a required one is checked before it is read (`<command> requires --name VALUE`).
        case option(OptionSpec, required: Bool)
        /// A positional argument, in declaration order among the positionals.
        case positional(PositionalSpec)
    }

    let kind: Kind
    /// The property the value is written to: lets ``CommandDeclaration/Validation`` ask whether it was given.
    let keyPath: AnyKeyPath
    /// Reads the value from the command line and writes it into the command.
    let apply: @Sendable (inout Command, ArgumentInput) throws(UsageError) -> Void

    /// The option's declaration, or `nil` for a positional.
    var option: OptionSpec? {
        if case .option(let spec, _) = kind { return spec }
        return nil
    }

    /// The positional's declaration, or `nil` for an option.
    var positional: PositionalSpec? {
        if case .positional(let spec) = kind { return spec }
        return nil
    }

    /// The most general declaration: `read` turns the input into the value, or `nil` to keep the default.
    ///
    /// - Parameters:
    ///   - name: the long name without dashes (`"state-dir"`).
    ///   - valueName: the placeholder in help (`"DIR"`); `nil` declares a flag.
    ///   - repeatable: whether the option may be given more than once (values kept in order). Default: `false`.
    ///   - required: whether the command refuses to run without it. Default: `false`.
    ///   - help: one line of help, stating the default when there is one.
    public static func option<Value>(
        _ name: String, valueName: String?, repeatable: Bool = false, required: Bool = false, help: String,
        _ keyPath: WritableKeyPath<Command, Value>,
        read: @escaping @Sendable (ArgumentInput) throws(UsageError) -> Value?
    ) -> Self {
        let spec = OptionSpec(name, valueName: valueName, repeatable: repeatable, help: help)
        nonisolated(unsafe) let path = keyPath
        return Self(kind: .option(spec, required: required), keyPath: keyPath) { command, input throws(UsageError) in
            if let value = try read(input) { command[keyPath: path] = value }
        }
    }

    /// A positional argument; `read` turns the word into the value (`nil`: keep the default).
    public static func positional<Value>(
        _ name: String, required: Bool = true, help: String, _ keyPath: WritableKeyPath<Command, Value>,
        read: @escaping @Sendable (ArgumentInput) throws(UsageError) -> Value?
    ) -> Self {
        nonisolated(unsafe) let path = keyPath
        return Self(kind: .positional(PositionalSpec(name, required: required, help: help)), keyPath: keyPath) {
            command, input throws(UsageError) in
            if let value = try read(input) { command[keyPath: path] = value }
        }
    }
}
