/// The synopsis lines, generated from the declared arguments: nothing about usage is written by hand.
extension CommandSpec {
    /// Synopsis lines without the `Usage: ` prefix: the command's own form (when runnable), then each
    /// subcommand's. The root's is `mediactl <command> [options]`.
    ///
    /// A required option reads `--name VALUE`, an optional one `[--name VALUE]`, a repeatable one ends in
    /// `...`; an exclusive ``OptionGroup`` reads `(--a A | --b)` when required, `[--a A | --b]` otherwise; an
    /// option that ``OptionSpec/needs`` another follows it as `--tag T [--soft]`; trailing optional positionals
    /// nest, as `[COMMAND [SUBCOMMAND]]`.
    public var usage: [String] {
        if path.isEmpty { return ["mediactl <command> [options]"] }
        let own = isRunnable ? [([invocation] + synopsisWords).joined(separator: " ")] : []
        return own + subcommands.flatMap(\.usage)
    }

    /// The words after the invocation, in declaration order.
    private var synopsisWords: [String] {
        var words: [String] = []
        var groupsShown: Set<OptionGroup> = []
        var optionalPositionals: [String] = []
        for argument in arguments {
            switch argument {
            case .positional(let spec) where spec.isRequired:
                words.append(spec.name)
            case .positional(let spec):
                optionalPositionals.append(spec.name)
            case .option(let spec) where spec.needs != nil:
                continue
            case .option(let spec):
                guard let group = spec.group else {
                    let word = withDependents(spec)
                    words.append((spec.isRequired ? word : "[" + word + "]") + (spec.isRepeatable ? "..." : ""))
                    continue
                }
                guard groupsShown.insert(group).inserted else { continue }
                let members = options.filter { $0.group == group }.map(withDependents).joined(separator: " | ")
                words.append(group.isRequired ? "(" + members + ")" : "[" + members + "]")
            }
        }
        if let nested = optionalPositionals.reversed().reduce(nil, { (inner: String?, name) in
            "[" + name + (inner.map { " " + $0 } ?? "") + "]"
        }) {
            words.append(nested)
        }
        return words
    }

    /// `spec`'s synopsis followed by the options that need it, each optional: `--tag T [--soft]`.
    private func withDependents(_ spec: OptionSpec) -> String {
        ([spec.synopsis] + options.filter { $0.needs == spec.name }.map { "[" + $0.synopsis + "]" })
            .joined(separator: " ")
    }
}
