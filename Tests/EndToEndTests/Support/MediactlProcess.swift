import Foundation

#if canImport(Glibc)
import Glibc
import MediaTestSupport
#endif

/// The built `mediactl` binary run as a child process: `mediactl serve` on a loopback port, and one-shot
/// commands (`audit --json`, `audit verify`, `purge`) with their exit code and output.
///
/// The binary is the `mediactl` next to the test bundle (normally `<package>/.build/debug/mediactl`),
/// built by `swift build --build-tests`. Output goes to
/// files (never pipes, which could fill and block the child) in the instance's log folder.
final class MediactlProcess: @unchecked Sendable {
    /// What `<state>/serve.json` says about a running `mediactl serve`.
    struct ServeInfo: Decodable, Equatable {
        /// The serving process id.
        var pid: Int32
        /// The listen address, e.g. `127.0.0.1:41234`.
        var listen: String
        /// The admin listener's address, e.g. `127.0.0.1:41235` (`off` without one).
        var admin: String?
        /// The admin token for `/_mediactl/purge` and `/_mediactl/admin/reload` (used by `mediactl purge` and `reload`).
        var adminToken: String
    }

    /// The result of a one-shot command.
    struct CommandResult {
        /// The exit status (or 128 + signal when the process died of a signal).
        var exitCode: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root: three folders up from this file (`Tests/EndToEndTests/Support`).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `mediactl` built with the running test bundle (its sibling, so `-c release` works too),
    /// else `<package>/.build/debug/mediactl`.
    static var binary: URL {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let sibling = bundleFolder.appendingPathComponent("mediactl")
        if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
        return packageRoot.appendingPathComponent(".build/debug/mediactl")
    }

    /// Whether the binary has been built.
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    /// The serving port.
    let port: Int
    /// The state directory given with `--state-dir`.
    let stateDirectory: URL
    /// The policies directory given with `--policies`.
    let policiesDirectory: URL
    /// Where stdout and stderr are captured.
    let logDirectory: URL
    private let process: Process

    /// Starts `mediactl serve --listen 127.0.0.1:<port> --admin-listen 127.0.0.1:0 --policies <policies>
    /// --state-dir <state>` and waits (up to `timeoutSeconds`) until the port accepts connections and `serve.json`
    /// names this process (and its admin listener, ``adminPort``); `adminListen` replaces `127.0.0.1:0`.
    /// `environment` is added to the test process's own (without `MEDIACTL_STATE_DIR`).
    /// - Throws: `MediactlProcess.Failure` when the binary is missing, the process exits early or the deadline passes.
    init(policiesDirectory: URL, stateDirectory: URL, port: Int? = nil, adminListen: String = "127.0.0.1:0",
         extraArguments: [String] = [], environment: [String: String] = [:], timeoutSeconds: Double = 20) throws {
        guard Self.isBuilt else { throw Failure("\(Self.binary.path) is missing: run swift build --build-tests") }
        self.port = try port ?? FreePort.find()
        self.stateDirectory = stateDirectory
        self.policiesDirectory = policiesDirectory
        logDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--listen", "127.0.0.1:\(self.port)", "--admin-listen", adminListen,
                             "--policies", policiesDirectory.path, "--state-dir", stateDirectory.path] + extraArguments
        process.environment = Self.childEnvironment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try Self.outputHandle(logDirectory.appendingPathComponent("stdout"))
        process.standardError = try Self.outputHandle(logDirectory.appendingPathComponent("stderr"))
        try process.run()
        try waitUntilServing(timeoutSeconds: timeoutSeconds)
    }

    /// The admin listener's port (read from serve.json; 0 when the listener is off).
    private(set) var adminPort = 0

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Whether the child is still running.
    var isRunning: Bool { process.isRunning }

    /// Everything the child wrote to stdout so far.
    var stdout: String { (try? String(contentsOf: logDirectory.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }

    /// Everything the child wrote to stderr so far.
    var stderr: String { (try? String(contentsOf: logDirectory.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }

    /// `<state>/serve.json`, decoded, or `nil` when absent or unreadable.
    var serveInfo: ServeInfo? {
        guard let data = try? Data(contentsOf: stateDirectory.appendingPathComponent("serve.json")) else { return nil }
        return try? JSONDecoder().decode(ServeInfo.self, from: data)
    }

    private func waitUntilServing(timeoutSeconds: Double) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            guard process.isRunning else {
                throw Failure("mediactl serve exited with \(process.terminationStatus) before serving: \(stderr)")
            }
            if let info = serveInfo, info.pid == process.processIdentifier, FreePort.accepts(port: port) {
                adminPort = info.admin.flatMap { Int($0.split(separator: ":").last ?? "") } ?? 0
                return
            }
            usleep(20_000)
        }
        kill()
        throw Failure("mediactl serve did not serve on port \(port) within \(timeoutSeconds) s: \(stderr)")
    }

    /// Sends SIGTERM and waits up to `timeoutSeconds` for a graceful exit; then SIGKILL.
    /// - Returns: the exit status (128 + signal when killed).
    @discardableResult
    func terminate(timeoutSeconds: Double = 15) -> Int32 {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
        if !Self.wait(for: process, timeoutSeconds: timeoutSeconds) {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return Self.status(of: process)
    }

    /// Sends SIGKILL (a crash: no stop record, nothing flushed) and waits for the exit.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Stops the child if still running and removes the log folder. Safe to call twice.
    func cleanUp() {
        if process.isRunning { terminate() }
        try? FileManager.default.removeItem(at: logDirectory)
    }

    deinit {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    // MARK: Helpers

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The test's environment without `MEDIACTL_STATE_DIR`, so only `--state-dir` decides.
    static var childEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MEDIACTL_STATE_DIR"] = nil
        return environment
    }

    static func outputHandle(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw Failure("cannot create \(url.path)") }
        return try FileHandle(forWritingTo: url)
    }

    /// Polls until `process` exits or the deadline passes; `true` when it exited.
    static func wait(for process: Process, timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        process.waitUntilExit()
        return true
    }

    static func status(of process: Process) -> Int32 {
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
