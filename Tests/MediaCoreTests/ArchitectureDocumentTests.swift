import Foundation
import Testing

/// docs/architecture.md's module table says what each target imports: it must be `Package.swift`'s `dependencies`
/// of that target, exactly, and name every target that is not a test target. Every source file the page names exists,
/// and the plain miss's chain names at most 8 files.
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

    /// Every `` `….swift` `` the page names, as written (from `Sources/`, or from a module's folder).
    static func namedFiles() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        return text.matches(of: try Regex(#"`([A-Za-z0-9_+/]+\.swift)`"#)).compactMap { $0.output[1].substring.map(String.init) }
    }

    @Test func everyFileThePageNamesExists() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }
        let named = try Self.namedFiles()
        #expect(named.count >= 15)
        for name in named {
            let atRoot = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(name).path)
            #expect(atRoot || files.contains { $0 == name || $0.hasSuffix("/" + name) }, "\(name)")
        }
    }

    @Test func thePlainMissPassesThroughAtMostEightFiles() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(text.firstRange(of: "**Plain miss**").map { text[$0.upperBound...] })
        let end = section.firstRange(of: "\n\n").map { section[..<$0.lowerBound] } ?? section
        let steps = end.split(separator: "\n").filter { $0.first?.isNumber == true }
        let files = Set(steps.flatMap { step in
            step.matches(of: try! Regex(#"`([A-Za-z0-9_+/]+\.swift)`"#)).compactMap { $0.output[1].substring.map(String.init) }
        })
        #expect(steps.count == 8)
        #expect(files.count == 8)
    }
}
