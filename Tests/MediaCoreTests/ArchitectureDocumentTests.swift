import Foundation
import Testing

/// docs/architecture.md's module table says what each target imports: it must be `Package.swift`'s `dependencies`
/// of that target, exactly, and name every target that is not a test target.
@Suite struct ArchitectureDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each non-test target of `Package.swift` and its dependencies (`.target`, `.executableTarget`, `.systemLibrary`).
    static func packageTargets() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try Regex(#"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"((?:[^()]|\([^()]*\))*)\)"#)
        let dependencies = try Regex(#"dependencies:\s*\[([^\]]*)\]"#)
        let quoted = try Regex(#""([^"]+)""#)
        var out: [String: Set<String>] = [:]
        for match in text.matches(of: target) {
            guard let name = match.output[1].substring.map(String.init),
                  let rest = match.output[2].substring else { continue }
            var names: Set<String> = []
            if let list = rest.firstMatch(of: dependencies)?.output[1].substring {
                for item in list.matches(of: quoted) { if let value = item.output[1].substring { names.insert(String(value)) } }
            }
            out[name] = names
        }
        return out
    }

    /// The rows of the module table: `` | `Name` | owns | imports | ``, imports split at commas (`—`: none).
    static func documentedImports() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { continue }
            let name = String(cells[1].dropFirst().dropLast())
            let imports = cells[cells.count - 2]
            out[name] = imports == "—" ? [] : Set(imports.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return out
    }

    @Test func theModuleTableIsPackageSwifts() throws {
        let package = try Self.packageTargets()
        let documented = try Self.documentedImports()
        #expect(package.count >= 20)
        #expect(Set(documented.keys) == Set(package.keys))
        for (name, dependencies) in package.sorted(by: { $0.key < $1.key }) {
            #expect(documented[name] == dependencies, "\(name)")
        }
    }
}
