import MediaTestSupport
import Foundation
import Glibc
import Testing

@testable import MediaServer

/// ``AccessLog`` without its writer thread (``AccessLog/Configuration/startsWriter`` off): only `flush`,
/// `reopen` and `close` write, so every test is deterministic.
@Suite struct AccessLogWriterTests {
    static let format = AccessLogFormat(clearPathTiers: ["public"]) { _ in "d" }

    static func entry(_ target: String) -> AccessLogEntry {
        AccessLogEntry(milliseconds: 0, method: "GET", target: target, status: 200, bytes: 1, durationMicroseconds: 2,
                       route: "catalog", tier: "public", cacheStatus: "mediactl; hit; ttl=9")
    }

    static func line(_ id: Int, _ target: String) -> String {
        #"{"time":"1970-01-01T00:00:00.000Z","id":\#(id),"method":"GET","route":"catalog","tier":"public","path":"\#(target)","status":200,"bytes":1,"duration_us":2,"cache":"hit"}"#
            + "\n"
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<missing>"
    }

    @Test func linesAreWrittenInOrderWithIDsOnFlush() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("access.log")
        let log = try AccessLog(path: path, format: Self.format, configuration: .init(startsWriter: false))
        log.record(Self.entry("/catalog/a.jpg"))
        log.record(Self.entry("/catalog/b.jpg"))
        #expect(Self.read(path) == "")
        log.flush()
        #expect(Self.read(path) == Self.line(1, "/catalog/a.jpg") + Self.line(2, "/catalog/b.jpg"))
        log.record(Self.entry("/catalog/c.jpg"))
        log.close()
        #expect(Self.read(path) == Self.line(1, "/catalog/a.jpg") + Self.line(2, "/catalog/b.jpg") + Self.line(3, "/catalog/c.jpg"))
        #expect(log.writtenLines == 3)
        #expect(log.droppedLines == 0)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o640 & ~Self.umask)
    }

    static var umask: mode_t {
        let current = Glibc.umask(0)
        Glibc.umask(current)
        return current
    }

    @Test func fullQueueDropsAndCountsWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("access.log")
        let log = try AccessLog(path: path, format: Self.format, configuration: .init(capacity: 2, startsWriter: false))
        for name in ["a", "b", "c", "d"] { log.record(Self.entry("/catalog/\(name).jpg")) }
        #expect(log.droppedLines == 2)
        log.flush()
        log.record(Self.entry("/catalog/e.jpg"))
        log.close()
        // Dropped lines keep their ids (3, 4): the gap shows the drop.
        #expect(Self.read(path) == Self.line(1, "/catalog/a.jpg") + Self.line(2, "/catalog/b.jpg") + Self.line(5, "/catalog/e.jpg"))
        #expect(log.writtenLines == 3)
        #expect(log.metricsText == """
            # HELP mediactl_access_log_lines_total Access-log lines written.
            # TYPE mediactl_access_log_lines_total counter
            mediactl_access_log_lines_total 3
            # HELP mediactl_access_log_dropped_total Access-log lines dropped (queue full or write failed).
            # TYPE mediactl_access_log_dropped_total counter
            mediactl_access_log_dropped_total 2

            """)
    }

    @Test func reopenAfterRenameWritesQueuedLinesToTheOldFileThenANewOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("access.log")
        let rotated = path + ".1"
        let log = try AccessLog(path: path, format: Self.format, configuration: .init(startsWriter: false))
        log.record(Self.entry("/catalog/a.jpg"))
        log.flush()
        log.record(Self.entry("/catalog/b.jpg"))
        #expect(rename(path, rotated) == 0)
        try log.reopen()
        log.record(Self.entry("/catalog/c.jpg"))
        log.close()
        #expect(Self.read(rotated) == Self.line(1, "/catalog/a.jpg") + Self.line(2, "/catalog/b.jpg"))
        #expect(Self.read(path) == Self.line(3, "/catalog/c.jpg"))
    }

    @Test func failedReopenKeepsWritingToThePreviousFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.path + "/logs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let path = folder + "/access.log"
        let log = try AccessLog(path: path, format: Self.format, configuration: .init(startsWriter: false))
        let moved = directory.path + "/moved"
        #expect(rename(folder, moved) == 0)
        #expect(throws: AccessLogError("cannot open access log '\(path)': No such file or directory (errno 2)")) { try log.reopen() }
        log.record(Self.entry("/catalog/a.jpg"))
        log.close()
        #expect(Self.read(moved + "/access.log") == Self.line(1, "/catalog/a.jpg"))
    }

    @Test func unopenableFileIsAnUnusableInputError() throws {
        #expect(throws: AccessLogError("cannot open access log '/nonexistent-dir/x.log': No such file or directory (errno 2)")) {
            _ = try AccessLog(path: "/nonexistent-dir/x.log", format: Self.format)
        }
    }

    @Test func writerThreadWritesWithoutFlush() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.file("access.log")
        let log = try AccessLog(path: path, format: Self.format, configuration: .init(writeInterval: .milliseconds(1)))
        log.record(Self.entry("/catalog/a.jpg"))
        // The writer's own batch (no flush here); bounded wait for the background write.
        let deadline = Date().addingTimeInterval(10)
        while log.writtenLines < 1 && Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(Self.read(path) == Self.line(1, "/catalog/a.jpg"))
        log.close()
    }
}
