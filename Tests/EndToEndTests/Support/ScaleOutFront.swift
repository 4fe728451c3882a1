import Foundation

#if canImport(Glibc)
import Glibc
import MediaTestSupport
#endif

/// The nginx front of docs/scale-out.md (`docs/examples/scale-out/nginx-front.conf`) with its production
/// addresses and paths replaced for a test: the three `server 10.0.0.1N:8080` lines by the given replica
/// ports on 127.0.0.1, `listen 80` by a free loopback port, the log and pid paths and nginx's temp folders
/// by a temp prefix. Every replacement must match, so the documented file cannot drift from this test.
final class ScaleOutFront: @unchecked Sendable {
    static var documentedConfigURL: URL {
        MediactlProcess.packageRoot.appendingPathComponent("docs/examples/scale-out/nginx-front.conf")
    }

    struct MissingPlaceholder: Error, CustomStringConvertible {
        let text: String
        var description: String { "docs/examples/scale-out/nginx-front.conf no longer contains '\(text)'" }
    }

    let port: Int
    let prefix: URL
    let configURL: URL
    private var process: Process?

    /// Writes the rendered configuration; ``test()`` checks it, ``start()`` runs it. `extraServerConfig` is
    /// inserted into the `server` block after `server_name` (e.g. a test-only `add_header X-Upstream …`).
    init(replicaPorts: [Int], extraServerConfig: String = "") throws {
        precondition(replicaPorts.count == 3, "the documented front has three replicas")
        port = try FreePort.find()
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-scale-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        configURL = prefix.appendingPathComponent("nginx.conf")
        var text = try String(contentsOf: Self.documentedConfigURL, encoding: .utf8)
        var replacements = [
            ("listen 80;", "listen 127.0.0.1:\(port);"),
            ("pid /run/nginx-mediactl.pid;", "pid \(prefix.path)/nginx.pid;"),
            ("/var/log/nginx/", prefix.path + "/"),
            ("http {\n", "http {\n    client_body_temp_path \(prefix.path)/tmp/body;\n    proxy_temp_path \(prefix.path)/tmp/proxy;\n"
                + "    fastcgi_temp_path \(prefix.path)/tmp/fastcgi;\n    uwsgi_temp_path \(prefix.path)/tmp/uwsgi;\n"
                + "    scgi_temp_path \(prefix.path)/tmp/scgi;\n"),
        ]
        if !extraServerConfig.isEmpty {
            replacements.append(("server_name media.example.com;\n", "server_name media.example.com;\n" + extraServerConfig + "\n"))
        }
        for (index, replicaPort) in replicaPorts.enumerated() {
            replacements.append(("server 10.0.0.1\(index + 1):8080 ", "server 127.0.0.1:\(replicaPort) "))
        }
        for (from, to) in replacements {
            guard text.contains(from) else { throw MissingPlaceholder(text: from) }
            text = text.replacingOccurrences(of: from, with: to)
        }
        if getuid() == 0 { text = "user root root;\n" + text }
        try text.write(to: configURL, atomically: true, encoding: .utf8)
    }

    /// `nginx -t -q -p <prefix> -c <config>`: the exit status and stderr.
    func test() throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-t", "-q", "-p", prefix.path, "-c", configURL.path, "-e", prefix.appendingPathComponent("error.log").path]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts nginx in the foreground and waits until it listens.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix.path, "-c", configURL.path, "-e", prefix.appendingPathComponent("error.log").path,
                             "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        try FreePort.waitUntilListening(port: port, timeoutSeconds: 10)
    }

    func stop() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        process = nil
        try? FileManager.default.removeItem(at: prefix)
    }

    deinit { stop() }
}
