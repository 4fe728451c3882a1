/// Options of one command that exclude each other, such as `purge`'s targets: usage shows them as
/// `(--route NAME | --all)` when one is required and `[--state-dir DIR | --replicas FILE]` otherwise, and
/// a command line with two of them (or, when required, none) is refused.
public struct OptionGroup: Sendable, Hashable {
    /// The group's name, unique within its command (not shown).
    public let name: String
    /// Whether exactly one member must be given (`true`) or at most one (`false`).
    public let isRequired: Bool

    public init(_ name: String, required: Bool) {
        self.name = name
        self.isRequired = required
    }
}
