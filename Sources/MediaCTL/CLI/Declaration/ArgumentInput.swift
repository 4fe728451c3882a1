/// What the command line gave for one ``CommandArgument``, with the means to refuse it.
public struct ArgumentInput: Sendable {
    /// The values in command-line order: every value of an option (one per use), the word of a positional;
    /// empty when the argument was not given. A flag has no values: see ``isGiven``.
    public let values: [String]
    /// Whether the argument was given at all.
    public let isGiven: Bool
    /// The process environment (`MEDIACTL_STATE_DIR` gives the default state directory).
    public let environment: [String: String]
    /// The argument as shown in messages: `--listen` for an option, `PATH` for a positional.
    public let shownName: String
    /// The command whose usage a refusal prints.
    let command: [String]

    /// The last value, or `nil` when the argument was not given.
    public var last: String? { values.last }

    /// A usage error about this command with `code` and the exact `message`.
    public func error(_ code: UsageError.Code, _ message: String) -> UsageError {
        UsageError(code, message, command: command)
    }

    /// The `invalid-value` refusal of `text`: `invalid --listen 'TEXT': REASON`.
    public func invalid(_ text: String, _ reason: String) -> UsageError {
        error(.invalidValue, "invalid \(shownName) '\(text)': \(reason)")
    }
}
