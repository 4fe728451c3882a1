import MediaTestSupport
import Foundation
import MediaAudit
import Testing

@testable import MediaCTL
@testable import MediaServer

#if canImport(Glibc)
    import Glibc
#endif

/// The built `mediactl serve` as a child process, stopped with a real SIGTERM.
@Suite struct ServeProcessTests {
    @Test func sigtermStopsTheServerWithExit0AndAStopRecord() async throws {
        let binary = try #require(ExecutableTests.binary, "mediactl is not built next to the tests")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0", "--policies", policies,
                             "--state-dir", state]
        process.environment = [:]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let reader = out.fileHandleForReading
        let lines = await OffPool.run { () -> String in
            var text = ""
            while text.split(separator: "\n", omittingEmptySubsequences: false).count < 3 {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let line = String(lines.prefix { $0 != "\n" }) + "\n"
        let prefix = "mediactl: serving on http://127.0.0.1:"
        try #require(line.hasPrefix(prefix), "unexpected first line: \(line)")
        let port = Int(line.dropFirst(prefix.count).prefix { $0.isNumber })!
        #expect(line == "\(prefix)\(port) (state: \(state), policies: \(policies))\n")
        let file = try #require(try ServeStateFile.read(stateDirectory: state))
        #expect(file.pid == process.processIdentifier)
        let admin = try #require(file.admin)
        #expect(lines == line + "mediactl: admin on http://\(admin)\n")
        // The public port answers 404 for the admin paths; the admin listener answers them.
        #expect(try await HTTPGet.fetch("http://127.0.0.1:\(port)/_mediactl/metrics").status == 404)
        #expect(try await HTTPGet.fetch("http://\(admin)/_mediactl/metrics").status == 200)

        let path = "/avatars/u1001.jpg?v=2"
        let first = try await HTTPGet.fetch("http://127.0.0.1:\(port)\(path)")
        #expect(first.status == 200)
        #expect(first.body == origin.origin.files["/avatars/u1001.next.jpg"]?.bytes)
        // ttl=60, or 59 when the fetch straddled a second boundary (RFC 9111 §4.2.3 response_delay).
        let cacheStatus = first.header("Cache-Status") ?? ""
        #expect(
            cacheStatus == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk"
                || cacheStatus == "mediactl; fwd=uri-miss; fwd-status=200; ttl=59; stored; detail=disk")
        let second = try await HTTPGet.fetch("http://127.0.0.1:\(port)\(path)")
        #expect(second.header("Cache-Status")?.hasPrefix("mediactl; hit; ttl=") == true)

        #expect(kill(process.processIdentifier, SIGTERM) == 0)
        let status = await OffPool.run { () -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr == "mediactl: SIGTERM: stopped after draining in-flight requests\n")
        #expect(!FileManager.default.fileExists(atPath: state + "/serve.json"))
        let records = try AuditReader.records(directory: state + "/audit")
        #expect(records.map(\.event).filter { $0 != .policy } == [.start, .store, .stop])
        #expect(records.last?.reason?.rawValue == "graceful-stop")
        await origin.stop()
    }
}

/// `mediactl demo` as users run it: the built binary, from an empty directory, nothing set up.
@Suite struct DemoProcessTests {
    @Test func demoRunsFromAnEmptyDirectoryAndExits0() async throws {
        let binary = try #require(ExecutableTests.binary, "mediactl is not built next to the tests")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["demo"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.environment = ["TMPDIR": directory.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (status, stdout, stderr) = await OffPool.run { () -> (Int32, String, String) in
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
            )
        }
        #expect(status == 0)
        #expect(stderr == "")
        #expect(DemoCommandTests.rows(stdout).map { $0[3] }
                == ["200", "200", "200", "200", "200", "200", "200", "200", "200", "200", "200", "401"]
                + Array(repeating: "200", count: 12))
        #expect(stdout.hasSuffix("\nclean: no violations\n"))
        // Nothing left behind: no state in the working directory, the temporary state directory removed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}
