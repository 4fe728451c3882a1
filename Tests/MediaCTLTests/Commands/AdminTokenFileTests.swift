import MediaTestSupport
import Foundation
import MediaServer
import Testing

@testable import MediaCTL

#if canImport(Glibc)
    import Glibc
#endif

/// `--admin-token-file FILE` (``AdminTokenFile``): read like an ssh key, one b64token of 32 to 256 characters; and
/// `purge --replicas … --admin-token-file`, whose replica lines may then be the admin URL alone.
@Suite struct AdminTokenFileTests {
    static let token = String(repeating: "ab12", count: 16)
    static let allowed = "32 to 256 characters of A-Z a-z 0-9 - . _ ~ + / (an RFC 6750 b64token), e.g. the output of 'openssl rand -hex 32'"

    func file(_ folder: TemporaryDirectory, _ name: String, _ contents: String, mode: mode_t = 0o600) throws -> String {
        let path = try folder.file(name, contents: contents)
        chmod(path, mode)
        return path
    }

    func message(_ path: String) -> String? {
        do throws(CommandError) {
            _ = try AdminTokenFile.read(path)
            return nil
        } catch {
            #expect(error.exitCode == .unusableInput)
            return error.message
        }
    }

    @Test func theTokenWithoutItsTrailingNewline() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        #expect(try AdminTokenFile.read(try file(folder, "t", Self.token + "\n")) == Self.token)
        #expect(try AdminTokenFile.read(try file(folder, "u", Self.token + "==\r\n", mode: 0o400)) == Self.token + "==")
    }

    @Test func refusalsNameTheFileAndWhatIsAllowed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let open = try file(folder, "open", Self.token, mode: 0o644)
        #expect(message(open) == "--admin-token-file \(open): has mode 0644: readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)")
        #expect(message(folder.path + "/none") == "--admin-token-file \(folder.path)/none: does not exist; allowed: a regular file only its owner can read or write (chmod 600)")
        let short = try file(folder, "short", "0123456789ab\n")
        #expect(message(short) == "--admin-token-file \(short): holds 12 characters; allowed: \(Self.allowed)")
        let long = try file(folder, "long", String(repeating: "a", count: 257))
        #expect(message(long) == "--admin-token-file \(long): holds 257 characters; allowed: \(Self.allowed)")
        let spaced = try file(folder, "spaced", String(repeating: "ab12", count: 8) + " " + String(repeating: "cd34", count: 8))
        #expect(message(spaced) == "--admin-token-file \(spaced): is not an RFC 6750 b64token; allowed: \(Self.allowed)")
    }

    @Test func purgeTakesItOnlyWithReplicas() async {
        let result = await CLIRun.run(["purge", "--all", "--admin-token-file", "t"])
        #expect(result.status == 64)
        #expect(result.stderr == CLIRun.usageError("option --admin-token-file needs --replicas", command: ["purge"]))
    }

    /// A replica line without a token source gets the file's token; a line with one still reads its serve.json.
    @Test func replicaLinesWithoutASourceUseTheFilesToken() async throws {
        let first = try await PurgeCommandTests.Running()
        let second = try await PurgeCommandTests.Running()
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let shared = try file(folder, "admin.token", first.token + "\n")
        let fleet = try folder.file(
            "fleet.txt",
            contents: "http://\(first.server.listen)\nhttp://\(second.server.listen) \(second.harness.stateDirectory)\n")
        #expect(
            await CLIRun.run(["purge", "--route", "catalog", "--replicas", fleet, "--admin-token-file", shared])
                == CLIRun(
                    status: 0,
                    stdout: "http://\(first.server.listen): purged 1 entry\nhttp://\(second.server.listen): purged 1 entry\ntotal: purged 2 entries on 2 of 2 replicas\n",
                    stderr: ""))
        let stale = try file(folder, "stale.token", String(repeating: "f", count: 64))
        let refused = await CLIRun.run(["purge", "--all", "--replicas", fleet, "--admin-token-file", stale])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("mediactl: http://\(first.server.listen): refused the purge: 401 admin-token-required: "))
        let withoutFile = await CLIRun.run(["purge", "--all", "--replicas", fleet])
        #expect(withoutFile == CLIRun(status: 2, stdout: "", stderr: "mediactl: replicas file '\(fleet)' line 1: http://\(first.server.listen) has no token source: write 'ADMIN-URL STATE-DIR' or 'ADMIN-URL SERVE.JSON'\n"))
        await first.close()
        await second.close()
    }
}
