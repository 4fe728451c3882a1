import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension MediactlProcess {
    /// Runs `mediactl <arguments>` to completion (up to `timeoutSeconds`, then SIGKILL).
    /// - Parameter launcher: a program and its arguments that run the binary, e.g.
    ///   `["/usr/bin/setpriv", "--reuid=65534", …, "/tmp/x/mediactl"]`; empty: the built binary itself.
    static func run(_ arguments: [String], launcher: [String] = [], timeoutSeconds: Double = 30) throws -> CommandResult {
        guard isBuilt else { throw Failure("\(binary.path) is missing: run swift build --build-tests") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? binary
        process.arguments = Array(launcher.dropFirst()) + arguments
        process.environment = childEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try outputHandle(folder.appendingPathComponent("stdout"))
        process.standardError = try outputHandle(folder.appendingPathComponent("stderr"))
        try process.run()
        if !wait(for: process, timeoutSeconds: timeoutSeconds) {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let out = (try? String(contentsOf: folder.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        return CommandResult(exitCode: status(of: process), stdout: out, stderr: err)
    }
}
