import Foundation

#if canImport(Glibc)
import Glibc
import MediaTestSupport
#endif

/// A real nginx `proxy_cache` in front of `mediactl serve` (docs/bff-integration.md), on a free
/// loopback port, adding `X-Cache-Status: $upstream_cache_status` to every answer.
final class NginxFront: @unchecked Sendable {
    let port: Int
    let prefix: URL
    private let process: Process

    /// The proxy cache folder (`proxy_cache_path`).
    var cacheDirectory: URL { prefix.appendingPathComponent("cache") }

    /// Starts nginx proxying everything to `127.0.0.1:<upstreamPort>`.
    init(upstreamPort: Int) throws {
        port = try FreePort.find()
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-front-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        process = try NginxProcess.launch(config: Self.config(port: port, prefix: prefix.path, upstreamPort: upstreamPort),
                                          prefix: prefix)
        try FreePort.waitUntilListening(port: port, timeoutSeconds: 10)
    }

    func stop() { NginxProcess.stop(process, prefix: prefix) }

    deinit { stop() }

    /// The front configuration: the example of docs/bff-integration.md with test paths.
    static func config(port: Int, prefix: String, upstreamPort: Int) -> String {
        NginxProcess.config(prefix: prefix, http: """
            access_log off;
            proxy_cache_path \(prefix)/cache levels=1:2 keys_zone=media:10m max_size=1g inactive=7d use_temp_path=off;
            upstream mediactl { server 127.0.0.1:\(upstreamPort); keepalive 16; }
            server {
                listen 127.0.0.1:\(port);
                location /_mediactl/ { return 404; }
                location / {
                    proxy_pass http://mediactl;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_cache media;
                    proxy_cache_key $scheme$host$request_uri;
                    proxy_cache_lock on;
                    add_header X-Cache-Status $upstream_cache_status always;
                }
            }
            """)
    }
}
