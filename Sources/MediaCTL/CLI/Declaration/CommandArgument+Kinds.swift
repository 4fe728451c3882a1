/// The usual kinds of argument, each reading its value the same way in every command.
extension CommandArgument {
    /// `--name`: sets the property to `true` when given.
    public static func flag(_ name: String, help: String, _ keyPath: WritableKeyPath<Command, Bool>) -> Self {
        option(name, valueName: nil, help: help, keyPath) { input in input.isGiven ? true : nil }
    }

    /// `--name VALUE`, taken as given (the last one when repeated); help shows the property's default unless the
    /// option is required.
    public static func text(
        _ name: String, valueName: String, required: Bool = false, help: String,
        _ keyPath: WritableKeyPath<Command, String>
    ) -> Self {
        let identity: @Sendable (String) -> String = { $0 }
        return option(name, valueName: valueName, required: required, help: help, keyPath, showing: identity) {
            input in input.last
        }
    }

    /// `--name VALUE`, taken as given; `nil` when absent.
    public static func text(
        _ name: String, valueName: String, help: String, _ keyPath: WritableKeyPath<Command, String?>
    ) -> Self {
        option(name, valueName: valueName, help: help, keyPath) { input in input.last.map { $0 } }
    }

    /// `--name VALUE` read by `parse`; a failure is refused as `invalid --name 'VALUE': REASON`. `showing`: how help
    /// shows the property's default (`nil`: the help line says it, if anything).
    public static func parsed<Value>(
        _ name: String, valueName: String, required: Bool = false, help: String,
        _ keyPath: WritableKeyPath<Command, Value>, showing: (@Sendable (Value) -> String)? = nil,
        parse: @escaping @Sendable (String) -> Result<Value, ReasonError>
    ) -> Self {
        option(name, valueName: valueName, required: required, help: help, keyPath, showing: showing) {
            input throws(UsageError) in
            guard let text = input.last else { return nil }
            switch parse(text) {
            case .success(let value): return value
            case .failure(let error): throw input.invalid(text, error.reason)
            }
        }
    }

    /// `--name VALUE` read by `parse` into an optional property (`nil` when absent).
    public static func parsed<Value>(
        _ name: String, valueName: String, help: String, _ keyPath: WritableKeyPath<Command, Value?>,
        showing: (@Sendable (Value?) -> String)? = nil, parse: @escaping @Sendable (String) -> Result<Value, ReasonError>
    ) -> Self {
        parsed(name, valueName: valueName, help: help, keyPath, showing: showing) { text in parse(text).map { Optional($0) } }
    }

    /// `--name VALUE`, repeatable: every value read by `parse`, in order.
    public static func repeated<Value>(
        _ name: String, valueName: String, help: String, _ keyPath: WritableKeyPath<Command, [Value]>,
        parse: @escaping @Sendable (String) -> Result<Value, ReasonError>
    ) -> Self {
        option(name, valueName: valueName, repeatable: true, help: help, keyPath) { input throws(UsageError) in
            guard input.isGiven else { return nil }
            var values: [Value] = []
            for text in input.values {
                switch parse(text) {
                case .success(let value): values.append(value)
                case .failure(let error): throw input.invalid(text, error.reason)
                }
            }
            return values
        }
    }

    /// `--name N`: a whole number of decimal digits within `range`, refused as
    /// `invalid --name 'TEXT': expected a whole number[ of UNIT] from LOW to HIGH`. Help shows the property's default
    /// unless the option is required.
    public static func wholeNumber(
        _ name: String, valueName: String = "N", in range: ClosedRange<Int>, unit: String? = nil,
        required: Bool = false, help: String, _ keyPath: WritableKeyPath<Command, Int>
    ) -> Self {
        parsed(
            name, valueName: valueName, required: required, help: help, keyPath, showing: { String($0) },
            parse: WholeNumber.parser(range, unit: unit))
    }

    /// `--name N` into an optional property (`nil` when absent).
    public static func wholeNumber(
        _ name: String, valueName: String = "N", in range: ClosedRange<Int>, help: String,
        _ keyPath: WritableKeyPath<Command, Int?>
    ) -> Self {
        parsed(name, valueName: valueName, help: help, keyPath, parse: WholeNumber.parser(range, unit: nil))
    }

    /// `--policies DIR`: the policy directory; help shows the property's default (`./Policies`).
    public static func policies(
        help: String = "Policy directory (*.json).", _ keyPath: WritableKeyPath<Command, String>
    ) -> Self {
        text("policies", valueName: "DIR", help: help, keyPath)
    }

    /// `--state-dir DIR`: the state directory; when absent, a non-empty `$MEDIACTL_STATE_DIR`, else
    /// `./.mediactl` (``CommandDefaults/stateDirectory(environment:)``).
    public static func stateDirectory(
        help: String = "State directory. " + CommandDefaults.stateDirectoryHelp,
        _ keyPath: WritableKeyPath<Command, String>
    ) -> Self {
        option("state-dir", valueName: "DIR", help: help, keyPath) { input in
            input.last ?? CommandDefaults.stateDirectory(environment: input.environment)
        }
    }

    /// `--json`: one JSON document instead of text.
    public static func json(_ keyPath: WritableKeyPath<Command, Bool>) -> Self {
        flag("json", help: "Print one JSON document instead of text.", keyPath)
    }

    /// `--origin ROUTE=URL`, repeatable, at most once per route (``OriginOverride``); a second one for a
    /// route is refused as `route 'NAME' given more than one --origin`.
    public static func origins(help: String, _ keyPath: WritableKeyPath<Command, [OriginOverride]>) -> Self {
        option("origin", valueName: "ROUTE=URL", repeatable: true, help: help, keyPath) { input throws(UsageError) in
            guard input.isGiven else { return nil }
            var origins: [OriginOverride] = []
            for text in input.values {
                switch OriginOverride.parse(text) {
                case .success(let origin):
                    if origins.contains(where: { $0.route == origin.route }) {
                        throw input.error(.duplicateOption, "route '\(origin.route)' given more than one --origin")
                    }
                    origins.append(origin)
                case .failure(let error):
                    throw input.invalid(text, error.reason)
                }
            }
            return origins
        }
    }

    /// A positional taken as given (`nil`, keep the default, when an optional one is absent).
    public static func positional(
        _ name: String, required: Bool = true, help: String, _ keyPath: WritableKeyPath<Command, String>
    ) -> Self {
        positional(name, required: required, help: help, keyPath) { input in input.last }
    }

    /// A positional read by `parse`; a failure is refused as `invalid NAME 'WORD': REASON`.
    public static func positional<Value>(
        _ name: String, help: String, _ keyPath: WritableKeyPath<Command, Value>,
        parse: @escaping @Sendable (String) -> Result<Value, ReasonError>
    ) -> Self {
        positional(name, required: true, help: help, keyPath) { input throws(UsageError) in
            guard let text = input.last else { return nil }
            switch parse(text) {
            case .success(let value): return value
            case .failure(let error): throw input.invalid(text, error.reason)
            }
        }
    }
}
