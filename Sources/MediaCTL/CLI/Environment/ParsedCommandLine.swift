/// A command line understood: what ``MediaCTLMain`` does with it.
public enum ParsedCommandLine: Sendable, Hashable {
    /// Print this command's help to stdout and exit 0 (`--help`, `-h`, `help …`, or no arguments).
    case help(CommandSpec)
    /// Print `mediactl 0.1.0` and exit 0.
    case version
    /// Run this command (``MediaCommand/run(in:context:)``).
    case command(any MediaCommand)

    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.help(let a), .help(let b)): a == b
        case (.version, .version): true
        case (.command(let a), .command(let b)): AnyHashable(a) == AnyHashable(b)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .help(let spec): hasher.combine(0); hasher.combine(spec)
        case .version: hasher.combine(1)
        case .command(let command): hasher.combine(2); hasher.combine(AnyHashable(command))
        }
    }
}
