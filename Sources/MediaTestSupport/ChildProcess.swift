import Foundation

/// A tool or the built binary, run to completion with its output captured: the tests' one way to do that.
public enum ChildProcess {
    /// What the process left: its exit status and its whole stdout and stderr (UTF-8, invalid bytes replaced).
    public struct Result: Sendable, Equatable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments` and waits for it. stdout is read to its end, then stderr, then the exit
    /// status: a process that writes more than a pipe holds to stderr before closing stdout would block, so this
    /// is for tools whose stderr is short.
    /// - Parameter environment: the child's whole environment; `nil` inherits this process's.
    /// - Throws: what `Process.run()` throws (no such file, not executable).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
