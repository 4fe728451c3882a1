import Foundation
import MediaTestSupport
import Testing

/// The real `mediactl` binary, as users run it: status, stdout and stderr of a child process.
@Suite struct ExecutableTests {
    /// `mediactl` next to the test bundle (`.build/<config>/`), built by `swift build --build-tests`.
    static let binary: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "mediactl"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/mediactl"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let binary = try #require(binary, "mediactl is not built next to the tests")
        let result = try ChildProcess.run(binary, arguments, environment: environment)
        return (result.status, result.stdout, result.stderr)
    }

    @Test func version() throws {
        let (status, stdout, stderr) = try Self.run(["--version"])
        #expect(status == 0)
        #expect(stdout == "mediactl 0.1.0\n")
        #expect(stderr == "")
    }

    @Test func usageErrorExits64() throws {
        let (status, stdout, stderr) = try Self.run(["purge", "--all", "--route", "x"])
        #expect(status == 64)
        #expect(stdout == "")
        #expect(
            stderr == """
                mediactl: options --route and --all cannot be used together
                Usage: mediactl purge (--route NAME | --credential-file FILE | --subject SUB | --url PATH | --tag T [--soft] | --all) [--state-dir DIR | --replicas FILE [--admin-token-file FILE]] [--receipt FILE]
                Run 'mediactl purge --help' for more information.

                """)
    }

    @Test func unusableInputExits2() throws {
        let (status, stdout, stderr) = try Self.run(
            ["audit", "verify"], environment: ["MEDIACTL_STATE_DIR": "/nonexistent"])
        #expect(status == 2)
        #expect(stdout == "")
        #expect(stderr == "mediactl: state directory '/nonexistent' does not exist\n")
    }

    /// libvips and libcurl, with the libraries they need, are opened when first used (`dlopen`: a transform, a fetch),
    /// not by the loader: the binary needs GLib (libvips' headers' flags) but neither library nor FoundationNetworking,
    /// so a command that derives and fetches nothing never maps them.
    @Test func libvipsAndLibcurlAreOpenedOnlyWhenUsed() throws {
        let binary = try #require(Self.binary, "mediactl is not built next to the tests")
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path])
        #expect(result.status == 0)
        let needed = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(needed.contains { $0.hasPrefix("libglib-2.0.so") })
        let opened = ["libvips", "libgobject", "librsvg", "libcurl", "libFoundationNetworking"]
        #expect(needed.filter { line in opened.contains { line.hasPrefix($0) } } == [])
    }

    @Test func helpGoesToStdout() throws {
        let (status, stdout, stderr) = try Self.run([])
        #expect(status == 0)
        #expect(stdout.hasPrefix("Usage: mediactl <command> [options]\n"))
        #expect(stderr == "")
    }
}
