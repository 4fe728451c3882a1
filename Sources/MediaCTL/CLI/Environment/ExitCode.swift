/// A `mediactl` exit status (docs/cli.md, "Exit status").
public struct ExitCode: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The process exit status.
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: ok, clean.
    public static let success = ExitCode(rawValue: 0)
    /// 1: violations found, a check failed, or the command is not available.
    public static let failure = ExitCode(rawValue: 1)
    /// 2: unusable input (unreadable file, bad policy).
    public static let unusableInput = ExitCode(rawValue: 2)
    /// 64: usage error (`EX_USAGE`).
    public static let usage = ExitCode(rawValue: 64)

    public var description: String { String(rawValue) }
}
