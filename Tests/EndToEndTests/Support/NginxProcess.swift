import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One nginx of the end-to-end tests (``NginxOrigin``, ``NginxFront``): its configuration written to `prefix`, started
/// with that prefix and its error log there, stopped and its folder removed.
enum NginxProcess {
    /// Writes `config` to `<prefix>/nginx.conf` and starts `/usr/sbin/nginx` on it.
    static func launch(config: String, prefix: URL) throws -> Process {
        let configURL = prefix.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix.path, "-c", configURL.path, "-e", prefix.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Stops `process` (waiting for it) and removes `prefix`.
    static func stop(_ process: Process, prefix: URL) {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: prefix)
    }

    /// A whole configuration: one worker in the foreground (as root when the tests run as root), its pid and error log
    /// in `prefix`, and an `http` block with its temp folders in `prefix/tmp`, then `http`.
    static func config(prefix: String, http: String) -> String {
        let user = getuid() == 0 ? "user root root;" : ""
        return """
        \(user)
        worker_processes 1;
        daemon off;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log warn;
        events { worker_connections 1024; }
        http {
            client_body_temp_path \(prefix)/tmp/body;
            proxy_temp_path \(prefix)/tmp/proxy;
            fastcgi_temp_path \(prefix)/tmp/fastcgi;
            uwsgi_temp_path \(prefix)/tmp/uwsgi;
            scgi_temp_path \(prefix)/tmp/scgi;
        \(http)
        }
        """
    }
}
