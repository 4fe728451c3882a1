import Foundation
import Testing

@testable import MediaCTL

/// `docs/cli.md` against ``CommandTree``: the synopsis has every command's usage line, every command has
/// its section and every option of a command is in the document.
@Suite struct CLIDocumentTests {
    /// The repository's `docs/cli.md`, next to `Tests/`.
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/cli.md").path

    /// Every command spec but the root, depth first.
    static var commands: [CommandSpec] {
        var pending = CommandTree.root.subcommands
        var out: [CommandSpec] = []
        while let spec = pending.first {
            pending.removeFirst()
            out.append(spec)
            pending.insert(contentsOf: spec.subcommands, at: 0)
        }
        return out
    }

    /// `text` with every run of spaces as one space.
    static func collapsed(_ text: some StringProtocol) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    @Test func synopsisHasEveryUsageLine() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let synopsis = Set(text.split(separator: "\n").map { Self.collapsed($0) })
        for spec in Self.commands where spec.isRunnable {
            #expect(synopsis.contains(Self.collapsed(spec.usage[0])), "\(spec.displayName): \(spec.usage[0])")
        }
    }

    @Test func everyCommandHasASectionNamingItsOptions() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        for spec in Self.commands where spec.isRunnable && spec.path != ["help"] {
            let heading = "### `mediactl " + spec.path.joined(separator: " ")
            guard let start = text.range(of: heading) else {
                Issue.record("no section \(heading)")
                continue
            }
            let rest = text[start.upperBound...]
            let section = rest.range(of: "\n### ").map { rest[..<$0.lowerBound] } ?? rest
            for option in spec.options {
                #expect(section.contains("`\(option.flag)`"), "\(spec.displayName): \(option.flag)")
            }
        }
    }
}
