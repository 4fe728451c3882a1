import Foundation
import Glibc
import Synchronization
import Testing

@testable import HTTPServer

/// Operators see the server's threads by name (`top -H`, `ps -L`, `/proc/PID/task/TID/comm`).
@Suite struct ThreadNamesTests {
    /// Thread id → name, for every thread of this process.
    static func threads() -> [String: String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var out: [String: String] = [:]
        for task in tasks {
            if let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) {
                out[task] = name.trimmingCharacters(in: .newlines)
            }
        }
        return out
    }

    @Test func loopsAndAcceptorAreNamed() async throws {
        // Threads of servers stopped by earlier tests may still be exiting: only new threads count.
        let before = Set(Self.threads().keys)
        let server = HTTPServer(configuration: .init(port: 0, eventLoopCount: 3), handler: EchoHandler())
        _ = try server.start()
        defer { server.stop() }
        let expected = ["http-accept", "http-loop-0", "http-loop-1", "http-loop-2"]
        func newNames() -> [String] {
            Self.threads().filter { !before.contains($0.key) }.values.filter { $0.hasPrefix("http-") }.sorted()
        }
        // A thread names itself when it first runs, which may be just after start() returns.
        var names = newNames()
        for _ in 0..<500 where names != expected {
            usleep(10_000)
            names = newNames()
        }
        #expect(names == expected)
    }

    @Test func namesAreCutTo15Bytes() async throws {
        let name = Mutex<String>("")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = PosixThread.spawn(name: "a-very-long-thread-name", stackBytes: 262_144, detached: true) {
                let text = ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
                    .trimmingCharacters(in: .newlines)
                name.withLock { $0 = text }
                done.resume()
            }
        }
        #expect(name.withLock { $0 } == "a-very-long-thr")
    }
}
