/// A command line checked against a ``CommandSpec``: options are declared, values present,
/// positional counts right. Typed option structs are built from it.
struct ParsedArguments: Sendable, Hashable {
    /// The command that was reached.
    var command: CommandSpec
    /// Values of value options, by name without dashes, in command-line order.
    var values: [String: [String]] = [:]
    /// Flags that were given, by name without dashes.
    var flags: Set<String> = []
    /// Positional arguments, in order.
    var positionals: [String] = []

    /// The last value of option `name`, or `nil` when absent.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of option `name`, in order; empty when absent.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A usage error of ``code`` about this command.
    func error(_ code: UsageError.Code, _ message: String) -> UsageError {
        UsageError(code, message, command: command.path)
    }
}
