import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mediactl serve --access-log PATH` through the built binary and the real nginx origin: one line per
/// request with the documented fields, nothing private in any line, and `SIGUSR1` reopening the file.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct AccessLogEndToEndTests {
    static let horse = "/catalog/horse-d29d871c.jpg"
    static let receipt = "/receipts/r-7731.png"
    static let token = NginxOrigin.longTokenU1

    /// The complete lines of `url` (polled until `count` are there, at most 10 s: the writer batches every 50 ms).
    static func lines(_ url: URL, count: Int) throws -> [String] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            if lines.count >= count || Date() >= deadline { return lines }
            usleep(2_000)
        }
    }

    /// A line as a JSON object with the varying values (`time`, `duration_us`, `origin_us`, `partition`)
    /// replaced by their shape, so the rest compares exactly.
    static func shape(_ line: String) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        var out: [String: String] = [:]
        for (key, value) in object {
            switch key {
            case "time":
                let text = value as? String ?? ""
                out[key] = text.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil
                    ? "<rfc3339-ms>" : text
            case "duration_us", "origin_us":
                out[key] = (value as? Int).map { $0 >= 0 ? "<us>" : "\($0)" } ?? "\(value)"
            case "request_id":
                // Made here (5 base32, -, a 9-character base32 counter) unless the client sent a well-formed one.
                let text = value as? String ?? ""
                out[key] = text.range(of: "^[0-9a-v]{5}-[0-9a-v]{9}$", options: .regularExpression) != nil ? "<made>" : text
            case "partition", "path_digest":
                let text = value as? String ?? ""
                out[key] = text.range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil ? "<hex64>" : text
            default:
                out[key] = value is NSNull ? "null" : "\(value)"
            }
        }
        return out
    }

    @Test func oneLinePerRequestNothingPrivateAndSIGUSR1Reopens() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        let logURL = world.root.appendingPathComponent("access.log")
        try world.start(extraArguments: ["--access-log", logURL.path])
        let cookie = ("Cookie", "session=cookie-secret-91f3")

        #expect(try world.get(Self.receipt + "?token=query-secret-5b2e").status == 401)
        #expect(try world.get(Self.receipt + "?token=query-secret-5b2e", token: Self.token, headers: [cookie]).status == 200)
        #expect(try world.get(Self.receipt + "?token=query-secret-5b2e", token: Self.token).status == 200)
        #expect(try world.get(Self.horse + "?v=1", headers: [cookie]).status == 200)
        #expect(try world.get(Self.horse + "?v=1", headers: [("X-Request-Id", "front-7f3a")]).status == 200)
        #expect(try world.get("/nowhere/secret-name.jpg", headers: [("X-Request-Id", "bad id with spaces")]).status == 404)
        // The public listener refuses /_mediactl/ (the admin listener answers it): a refusal, logged like one.
        #expect(try world.get("/_mediactl/health").status == 404)

        let lines = try Self.lines(logURL, count: 7)
        #expect(lines.count == 7)
        let shapes = try lines.map(Self.shape)
        let common = ["time": "<rfc3339-ms>", "method": "GET", "duration_us": "<us>", "request_id": "<made>"]
        let receipt = ["route": "receipts", "tier": "private", "path_digest": "<hex64>"]
        let horse = ["route": "catalog", "tier": "public", "path": Self.horse + "?v=1"]
        let expected: [[String: String]] = [
            receipt.merging(["id": "1", "status": "401", "bytes": "\(shapes.first?["bytes"] ?? "")", "cache": "refused"]) { $1 },
            receipt.merging(["id": "2", "status": "200", "bytes": "\(Fixtures.bytes(String(Self.receipt.dropFirst())).count)",
                             "cache": "miss", "origin_status": "200", "origin_us": "<us>", "partition": "<hex64>"]) { $1 },
            receipt.merging(["id": "3", "status": "200", "bytes": "\(Fixtures.bytes(String(Self.receipt.dropFirst())).count)",
                             "cache": "hit", "partition": "<hex64>"]) { $1 },
            horse.merging(["id": "4", "status": "200", "bytes": "\(Fixtures.bytes(String(Self.horse.dropFirst())).count)",
                           "cache": "miss", "origin_status": "200", "origin_us": "<us>"]) { $1 },
            horse.merging(["id": "5", "status": "200", "bytes": "\(Fixtures.bytes(String(Self.horse.dropFirst())).count)",
                           "cache": "hit", "request_id": "front-7f3a"]) { $1 },
            ["route": "null", "tier": "null", "path_digest": "<hex64>", "id": "6", "status": "404",
             "bytes": "\(shapes.count > 5 ? shapes[5]["bytes"] ?? "" : "")", "cache": "refused"],
            ["route": "null", "tier": "null", "path": "/_mediactl/health", "id": "7", "status": "404",
             "bytes": "\(shapes.count > 6 ? shapes[6]["bytes"] ?? "" : "")", "cache": "refused"],
        ].map { $0.merging(common) { old, _ in old } }
        #expect(shapes == expected)
        // The refusal bodies are problem+json of a few hundred bytes.
        #expect(Int(shapes.first?["bytes"] ?? "") ?? 0 > 0)
        // Same path, same digest (one process key); the two receipt requests share one partition.
        #expect(Set(lines.prefix(3).compactMap { try? Self.rawField($0, "path_digest") }).count == 1)
        #expect(try Self.rawField(lines[1], "partition") == Self.rawField(lines[2], "partition"))
        for line in lines {
            for secret in [Self.token, "Bearer", "cookie-secret-91f3", "query-secret-5b2e", "r-7731", "/receipts/",
                           "secret-name", "Cookie", "Authorization"] {
                #expect(!line.contains(secret), "\(secret) in \(line)")
            }
        }

        // logrotate: rename, SIGUSR1, and the next lines go to a new file at the same path.
        let rotated = world.root.appendingPathComponent("access.log.1")
        try FileManager.default.moveItem(at: logURL, to: rotated)
        #expect(kill(try #require(world.serve?.pid), SIGUSR1) == 0)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: logURL.path) && Date() < deadline { usleep(2_000) }
        #expect(FileManager.default.fileExists(atPath: logURL.path))
        #expect(try world.get(Self.horse + "?v=1").status == 200)
        let next = try Self.lines(logURL, count: 1)
        #expect(try next.map(Self.shape) == [horse.merging(common) { $1 }.merging(
            ["id": "8", "status": "200", "bytes": "\(Fixtures.bytes(String(Self.horse.dropFirst())).count)", "cache": "hit"]) { $1 }])
        #expect(try Self.lines(rotated, count: 7) == lines)
        #expect(world.stop() == 0)
        #expect(try Self.lines(logURL, count: 1).count == 1)
    }

    @Test func requestsTheHTTPServerRefusesGetALineWithoutMethodOrPath() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        let logURL = world.root.appendingPathComponent("access.log")
        try world.start(extraArguments: ["--access-log", logURL.path])
        let refused = try RawHTTP.send(port: world.port, raw: Array("GET /receipts/r-7731.png?sig=secret HTTP/9.9\r\nHost: x\r\n\r\n".utf8))
        #expect(refused.status == 505)
        let lines = try Self.lines(logURL, count: 1)
        #expect(try lines.map(Self.shape) == [[
            "time": "<rfc3339-ms>", "id": "1", "method": "null", "route": "null", "tier": "null", "path": "null",
            "status": "505", "bytes": "\(refused.body.count)", "duration_us": "<us>", "cache": "refused",
        ]])
        #expect(!(lines.first ?? "").contains("secret"))
    }

    static func rawField(_ line: String, _ key: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?[key] as? String
    }
}
