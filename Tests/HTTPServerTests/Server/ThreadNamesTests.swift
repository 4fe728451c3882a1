import Foundation
import Glibc
import Synchronization
import Testing

@testable import HTTPServer

/// Operators see the server's threads by name (`top -H`, `ps -L`, `/proc/PID/task/TID/comm`).
@Suite struct ThreadNamesTests {
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }

    @Test func loopsAndAcceptorAreNamed() async throws {
        let before = Self.threadNames()
        let server = HTTPServer(configuration: .init(port: 0, eventLoopCount: 3), handler: EchoHandler())
        _ = try server.start()
        defer { server.stop() }
        let expected = ["http-loop-0", "http-loop-1", "http-loop-2", "http-accept"]
        var names = Self.threadNames()
        // A thread names itself when it first runs, which may be just after start() returns.
        for _ in 0..<200 where !expected.allSatisfy({ names.contains($0) }) {
            usleep(10_000)
            names = Self.threadNames()
        }
        for name in ["http-loop-0", "http-loop-1", "http-loop-2", "http-accept"] {
            #expect(names.filter { $0 == name }.count == before.filter { $0 == name }.count + 1, "\(name)")
        }
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
