import MediaTestSupport
import Foundation
import MediaPolicy
import MediaTransform
import Testing

@testable import MediaCTL

@Suite struct PolicyCheckCommandTests {
    static let repositoryPolicies = ServiceStateHarness.repository.appendingPathComponent("Policies").path

    static let variants = "widths 72 144 288 576 1152, formats jpeg webp avif png, maxDpr 3, quality jpeg 80 webp 85 avif 70 jxl 80, maxOutputPixels 1327104, maxAVIFWidth 576"

    @Test func avifNoteNamesTheTiersThatFallBack() throws {
        let policies = try PolicyLoader().load(directory: Self.repositoryPolicies)
        #expect(PolicyCheckCommand.avifNote(policies, canSaveAVIF: true) == "saves jpeg, webp, avif, png, jxl")
        #expect(PolicyCheckCommand.avifNote(policies, canSaveAVIF: true, canSaveJXL: false) == "saves jpeg, webp, avif, png")
        #expect(PolicyCheckCommand.avifNote(policies, canSaveAVIF: false)
                == "cannot save AVIF: fmt=avif and fmt=auto fall back to webp on tiers avatar, private, public")
    }

    /// Where libvips cannot be opened (it is loaded on first use, not linked), the last line says why instead of a version.
    @Test func libvipsLineSaysWhyLibvipsCannotBeUsed() throws {
        let policies = try PolicyLoader().load(directory: Self.repositoryPolicies)
        let reason = "libvips cannot be opened: libvips.so.42: cannot open shared object file: No such file or directory"
        #expect(PolicyCheckCommand.libvipsLine(policies, unavailable: reason)
                == "  " + reason + ": serve refuses tiers that declare variants here\n")
        #expect(PolicyCheckCommand.libvipsLine(policies, unavailable: nil)
                == "  libvips \(VipsRuntime.version): saves jpeg, webp, avif, png, jxl\n")
    }

    @Test func defaultPoliciesAreAccepted() async throws {
        let result = await CLIRun.run(
            ["policy", "check", "--policies", Self.repositoryPolicies])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let p = Self.repositoryPolicies
        // The digest serve records in its audit log's policy records (same files, no --origin).
        let digest = try ServiceSetup.loadPoliciesWithDigest(p).digest
        #expect(digest.count == 64 && digest.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(
            result.stdout == """
                policies ok: 1 file, 4 tiers, 6 routes in \(p)
                  file  \(p)/default.json
                  sha256 \(digest)
                  tier  avatar: storage disk, cache shared, credentials strip, partition none, maxTTL 31536000, metadata strip
                        variants: \(Self.variants)
                        query: ignored utm_* fbclid gclid, passed none
                        errorTTL: 404 30 s
                  tier  no-store: storage none, cache shared, credentials strip, partition none, maxTTL 86400
                  tier  private: storage encrypted-disk, cache private, credentials bearer-required, partition credential, maxTTL 600, metadata strip
                        variants: \(Self.variants)
                  tier  public: storage disk, cache shared, credentials strip, partition none, maxTTL 31536000
                        variants: \(Self.variants)
                        query: ignored utm_* fbclid gclid, passed v
                        errorTTL: 404 60 s, 410 600 s, refused 60 s
                        tagHeader: Surrogate-Key
                  route catalog: /catalog/ -> http://127.0.0.1:8081/catalog/ (tier public, methods read)
                  route large: /large/ -> http://127.0.0.1:8081/large/ (tier public, methods read)
                  route avatars: /avatars/ -> http://127.0.0.1:8081/avatars/ (tier avatar, methods read)
                  route uploads: /uploads/ -> http://127.0.0.1:8081/uploads/ (tier avatar, methods read)
                  route receipts: /receipts/ -> http://127.0.0.1:8081/receipts/ (tier private, methods read)
                  route one-time: /one-time/ -> http://127.0.0.1:8081/one-time/ (tier no-store, methods read)
                  libvips \(VipsRuntime.version): \(VipsRuntime.canSaveAVIF ? "saves jpeg, webp, avif, png, jxl" : "cannot save AVIF: fmt=avif and fmt=auto fall back to webp on tiers avatar, private, public")

                """)
    }

    @Test func misspelledKeyIsNamedWithExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let text = try String(contentsOfFile: Self.repositoryPolicies + "/default.json", encoding: .utf8)
        let misspelled = text.replacingOccurrences(of: "\"maxTTL\": 600", with: "\"maxTTTL\": 600")
        #expect(misspelled != text)
        _ = try folder.file("default.json", contents: misspelled)
        let result = await CLIRun.run(
            ["policy", "check", "--policies", folder.path])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        let allowed = PolicyFormat.tierKeys.joined(separator: ", ")
        #expect(
            result.stderr == """
                mediactl: \(folder.path)/default.json: tiers.private.maxTTTL: unknown key (did you mean `maxTTL`?); allowed: \(allowed)
                mediactl: policy check failed: 1 problem in \(folder.path)

                """)
    }

    @Test func everyProblemIsListed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        _ = try folder.file("a.json", contents: #"{ "tiers": { "t": { "storage": "disc" } }, "routes": [] }"#)
        _ = try folder.file("b.json", contents: "{ not json")
        let result = await CLIRun.run(
            ["policy", "check", "--policies", folder.path])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("mediactl: \(folder.path)/a.json: tiers.t.storage: "))
        #expect(lines[0].contains("\"disc\""))
        #expect(lines[1].hasPrefix("mediactl: \(folder.path)/b.json: invalid JSON at line 1, column "))
        #expect(lines[2] == "mediactl: policy check failed: 2 problems in \(folder.path)")
    }

    @Test func missingDirectoryIsExitTwo() async {
        let result = await CLIRun.run(
            ["policy", "check", "--policies", "/nonexistent/policies"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                mediactl: /nonexistent/policies: does not exist; allowed: a readable directory of *.json policy files
                mediactl: policy check failed: 1 problem in /nonexistent/policies

                """)
    }
}
