import Foundation

#if canImport(Glibc)
import Glibc
import MediaTestSupport
#endif

/// A real nginx origin for end-to-end tests, on a free loopback port, serving `Tests/Fixtures/corpus`
/// with per-folder cache headers:
///
/// | path | headers |
/// |---|---|
/// | `/catalog/` | `Cache-Control: public, max-age=31536000, immutable`, ETag |
/// | `/avatars/` | `Cache-Control: max-age=60`, ETag, Last-Modified |
/// | `/receipts/` | 401 + `WWW-Authenticate: Bearer` unless `Bearer t1` or `Bearer t2`; then `private, max-age=60` |
/// | `/one-time/` | the catalog files with `Cache-Control: no-store` |
/// | `/hostile/` | hostile files with `public, max-age=600` |
///
/// Each instance has its own prefix folder (config, pid, logs) and is stopped with ``stop()``.
final class NginxOrigin: @unchecked Sendable {
    let port: Int
    let prefix: URL
    private let process: Process

    /// The origin base URL, e.g. `http://127.0.0.1:41234`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Distinctive tokens the receipts folder also accepts (for scanning files for a token).
    static let longTokenU1 = "tok-U1-7c1e2a9d4b86f305"
    static let longTokenU2 = "tok-U2-5e8f0b3c6a21d947"

    /// Whether nginx is installed (scripts/test installs it).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") }

    static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/corpus")
    }

    /// Starts nginx. `extraServerConfig` is inserted into the `server` block (extra locations),
    /// `extraHTTPConfig` into the `http` block (maps). Every request is logged to ``accessLogURL`` as
    /// `<uri> auth=<Authorization> inm=<If-None-Match> xfh=<X-Forwarded-Host> fwd=<Forwarded> status=<status>`.
    init(extraServerConfig: String = "", extraHTTPConfig: String = "") throws {
        port = try FreePort.find()
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-origin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        let config = NginxOrigin.config(port: port, prefix: prefix.path, root: NginxOrigin.fixturesDirectory.path,
                                        extra: extraServerConfig, extraHTTP: extraHTTPConfig)
        process = try NginxProcess.launch(config: config, prefix: prefix)
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                try FreePort.waitUntilListening(port: port, timeoutSeconds: 0.2)
                return
            } catch {
                // nginx refused its configuration (a repeated location, a typo) or could not bind: say what it said.
                guard process.isRunning, Date() < deadline else { break }
            }
        }
        let log = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        stop()
        throw StartFailure(port: port, errorLog: log)
    }

    /// nginx exited, or did not listen within 10 s; `errorLog` is what it wrote (`nginx: [emerg] duplicate location …`).
    struct StartFailure: Error, CustomStringConvertible {
        var port: Int
        var errorLog: String
        var description: String {
            "the nginx origin exited or did not listen on 127.0.0.1:\(port) within 10 s; its error log: "
                + (errorLog.isEmpty ? "(empty)" : errorLog.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    func stop() { NginxProcess.stop(process, prefix: prefix) }

    deinit { stop() }

    /// The access log (see ``init(extraServerConfig:extraHTTPConfig:)`` for the line format).
    var accessLogURL: URL { prefix.appendingPathComponent("access.log") }

    /// The access log's lines so far, each without its last field (` rid=<X-Request-Id>`: see ``rawAccessLog``).
    var accessLog: [String] {
        rawAccessLog.map { line in line.range(of: " rid=", options: .backwards).map { String(line[..<$0.lowerBound]) } ?? line }
    }

    /// The access log's lines so far as nginx wrote them, ending with ` rid=<the X-Request-Id received>`.
    var rawAccessLog: [String] {
        ((try? String(contentsOf: accessLogURL, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The access log lines starting with `prefix`, once there are at least `count` of them (nginx
    /// writes a line after the last byte is sent, so it can lag the response the client already has).
    /// Polls up to `timeoutSeconds`, then returns what there is.
    func accessLog(prefix: String, count: Int, timeoutSeconds: Double = 5) -> [String] {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var lines = accessLog.filter { $0.hasPrefix(prefix) }
        while lines.count < count && Date() < deadline {
            usleep(5_000)
            lines = accessLog.filter { $0.hasPrefix(prefix) }
        }
        return lines
    }

    static func config(port: Int, prefix: String, root: String, extra: String, extraHTTP: String = "") -> String {
        NginxProcess.config(prefix: prefix, http: """
            log_format e2e '$request_uri auth=$http_authorization inm=$http_if_none_match xfh=$http_x_forwarded_host fwd=$http_forwarded status=$status rid=$http_x_request_id';
            access_log \(prefix)/access.log e2e;
            types { image/jpeg jpg; image/png png; image/gif gif; image/webp webp; image/svg+xml svg; }
            default_type application/octet-stream;
            map $http_authorization $origin_user { default ""; "Bearer t1" u1; "Bearer t2" u2;
                "Bearer \(NginxOrigin.longTokenU1)" u1; "Bearer \(NginxOrigin.longTokenU2)" u2; }
            \(extraHTTP)
            server {
                listen 127.0.0.1:\(port);
                root \(root);
                location /catalog/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
                location /avatars/ { add_header Cache-Control "max-age=60"; }
                location /receipts/ {
                    if ($origin_user = "") { return 401; }
                    add_header Cache-Control "private, max-age=60";
                }
                location /one-time/ {
                    alias \(root)/catalog/;
                    add_header Cache-Control "no-store";
                }
                location /hostile/ { add_header Cache-Control "public, max-age=600"; }
                error_page 401 /_401;
                location = /_401 { internal; add_header WWW-Authenticate "Bearer" always; return 401 "unauthorized"; }
                \(extra)
            }
            """)
    }
}
