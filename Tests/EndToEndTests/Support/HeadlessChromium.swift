import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's `chromium`, headless (`--headless=new`), for pages the tests serve: ``open(_:)`` loads a page and keeps
/// running until stopped (the page reports its own results, e.g. with a request the test's origin logs), and
/// ``screenshot(_:to:size:timeoutSeconds:)``. Each run has its own profile folder and is killed at a deadline.
enum HeadlessChromium {
    static let binary = "/usr/bin/chromium"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A running browser showing one page; ``stop()`` kills it and removes its profile.
    final class Session {
        let process: Process
        let folder: URL
        init(process: Process, folder: URL) {
            self.process = process
            self.folder = folder
        }
        /// What the browser wrote to stderr so far (console errors with `--enable-logging=stderr`).
        var stderr: String { (try? String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }
        func stop() {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Starts the browser on `url` (with console messages on its stderr); the caller stops it.
    static func open(_ url: String) throws -> Session {
        let (process, folder) = try start(["--enable-logging=stderr", "--v=0", url])
        return Session(process: process, folder: folder)
    }

    /// A PNG screenshot of `url` at `size` (`--window-size`) written to `file`.
    static func screenshot(_ url: String, to file: URL, size: String = "900,500", timeoutSeconds: Double = 60) throws {
        _ = try run(["--screenshot=\(file.path)", "--window-size=\(size)", "--virtual-time-budget=15000",
                     "--hide-scrollbars", url], timeoutSeconds: timeoutSeconds)
        guard FileManager.default.fileExists(atPath: file.path) else { throw Failure(description: "no screenshot at \(file.path)") }
    }

    private static func run(_ arguments: [String], timeoutSeconds: Double) throws -> (stdout: String, stderr: String) {
        let (process, folder) = try start(arguments)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
        if !MediactlProcess.wait(for: process, timeoutSeconds: timeoutSeconds) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let tail = ((try? String(contentsOf: err, encoding: .utf8)) ?? "").suffix(2000)
            throw Failure(description: "chromium did not finish within \(timeoutSeconds) s; stderr ends: \(tail)")
        }
        return ((try? String(contentsOf: out, encoding: .utf8)) ?? "", (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    private static func start(_ arguments: [String]) throws -> (Process, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // --no-sandbox: CI runs as root; a temporary profile so runs never share a cache.
        process.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                             "--no-default-browser-check", "--disable-extensions", "--user-data-dir=\(folder.path)/profile"]
            + arguments
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, folder)
    }
}
