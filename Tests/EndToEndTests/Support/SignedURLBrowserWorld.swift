import Foundation
import MediaSigning
import MediaTestSupport

/// The world of the browser test (BrowserSignedURLTests): docs/examples/signed-urls/policy.json served by the
/// built `mediactl serve`, a real nginx origin, and a second nginx server on another port that serves the
/// test page, so everything the page loads from mediactl is cross-origin.
///
/// | origin path | answers |
/// |---|---|
/// | `/signed/latest` | 401 unless `Authorization: Bearer` ``originToken``; then the receipt of the subject in `Mediactl-Subject` (``receipts``), 404 for any other subject |
/// | `/receipts/…` | NginxOrigin's rule: 401 unless `Bearer t1` or `Bearer t2` |
///
/// Route `receipts` (`/receipts/`, signed) points at `/signed/`, route `attachments` (`/attachments/`, bearer) at
/// `/receipts/`, both with `serve --origin`. The origin and the page server log each request to
/// ``originLog`` / ``pageLog`` as `METHOD URI sub=<Mediactl-Subject> auth=<Authorization> origin=<Origin>
/// referer=<Referer> status=<status>`; mediactl's access log is ``accessLogURL``.
final class SignedURLBrowserWorld: @unchecked Sendable {
    /// The key id and secret of the test keys file (`keys/receipts.keys`).
    static let keyID = "e2e-2026-12"
    static let secret: [UInt8] = (0..<32).map { UInt8(($0 * 37 + 11) % 256) }
    /// The service token mediactl sends to the origin for signed requests (`secrets/receipts-origin.token`).
    static let originToken = "svc-receipts-e2e-4b1f9c27d05a"
    /// Subject → the corpus file the origin answers `/signed/latest` with for them: two different receipts.
    static let receipts = ["user-a": "receipts/r-7731.png", "user-b": "receipts/r-7732.jpg"]

    let environment: ServeEnvironment
    let pagePort: Int
    /// The folder the page server serves.
    let pageDirectory: URL

    /// The page's origin, the one the policy's `allowOrigins` lists.
    var pageOrigin: String { "http://127.0.0.1:\(pagePort)" }
    /// mediactl's origin (another port, so another origin).
    var mediactlOrigin: String { "http://127.0.0.1:\(environment.port)" }
    var accessLogURL: URL { environment.root.appendingPathComponent("access.log") }
    var originLogURL: URL { environment.origin.prefix.appendingPathComponent("origin-requests.log") }
    var pageLogURL: URL { environment.origin.prefix.appendingPathComponent("page-requests.log") }

    /// Starts nginx (origin and page server), writes the example policy with the page's origin in
    /// `allowOrigins`, its keys and token files (mode 0600 in 0700 folders), and starts `mediactl serve`.
    init() throws {
        pagePort = try FreePort.find()
        pageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("mediactl-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: pageDirectory, withIntermediateDirectories: true)
        let subjects = Self.receipts.keys.sorted().map { "\"\($0)\" \"/\(Self.receipts[$0] ?? "")\";" }.joined(separator: " ")
        let httpConfig = """
            log_format browser '$request_method $request_uri sub=$http_mediactl_subject auth=$http_authorization origin=$http_origin referer=$http_referer status=$status';
            map $http_mediactl_subject $receipt_of_subject { default ""; \(subjects) }
            server {
                listen 127.0.0.1:\(pagePort);
                root \(pageDirectory.path);
                default_type text/html;
                access_log page-requests.log browser;
                location / { add_header Cache-Control "no-store"; }
            }
            """
        let serverConfig = """
            access_log origin-requests.log browser;
            location = /signed/latest {
                if ($http_authorization != "Bearer \(Self.originToken)") { return 401; }
                if ($receipt_of_subject = "") { return 404; }
                add_header Cache-Control "private, max-age=60";
                try_files $receipt_of_subject =404;
            }
            """
        let pageOrigin = "http://127.0.0.1:\(pagePort)"
        do {
            environment = try ServeEnvironment(originServerConfig: serverConfig, originHTTPConfig: httpConfig) { _ in
                try Self.examplePolicy().replacingOccurrences(of: "https://app.example.com", with: pageOrigin)
            }
        } catch {
            try? FileManager.default.removeItem(at: pageDirectory)
            throw error
        }
        do {
            try writeSecrets()
            try FreePort.waitUntilListening(port: pagePort, timeoutSeconds: 10)
            let base = environment.origin.baseURL
            try environment.start(extraArguments: ["--access-log", accessLogURL.path,
                                                   "--origin", "receipts=\(base)/signed/",
                                                   "--origin", "attachments=\(base)/receipts/"])
        } catch {
            tearDown()
            throw error
        }
    }

    /// docs/examples/signed-urls/policy.json as committed.
    static func examplePolicy() throws -> String {
        let file = MediactlProcess.packageRoot.appendingPathComponent("docs/examples/signed-urls/policy.json")
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// `keys/receipts.keys` (`KID SECRET`, the secret unpadded base64url) and `secrets/receipts-origin.token`
    /// next to the policy file, as the example's README makes them.
    private func writeSecrets() throws {
        let files = [("keys/receipts.keys", "\(Self.keyID) \(Base64URL.encode(Self.secret))\n"),
                     ("secrets/receipts-origin.token", Self.originToken + "\n")]
        for (path, text) in files {
            let url = environment.policiesDirectory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            else { throw MediactlProcess.Failure("cannot write \(url.path)") }
        }
    }

    /// A signed request target for `subject` (`PATH?QUERY&exp=…&sub=…&kid=…&sig=…`), valid for 300 s.
    func signed(_ path: String, query: String?, subject: String) throws -> String {
        let expires = Int64(Date().timeIntervalSince1970) + 300
        return try URLSigner(keyID: Self.keyID, secret: Self.secret).sign(path: path, query: query, subject: subject,
                                                                          expires: expires)
    }

    /// Writes `html` as the page `name` and returns its URL on the page server.
    func publishPage(_ html: String, name: String = "index.html") throws -> String {
        try html.write(to: pageDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return "\(pageOrigin)/\(name)"
    }

    /// The lines of a log file so far (complete lines only).
    static func lines(_ url: URL) -> [String] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The lines of `url` once there are at least `count` (polled, at most `timeoutSeconds`: nginx logs after
    /// the last byte is sent, mediactl's access log is written in 50 ms batches); then what there is.
    static func lines(_ url: URL, count: Int, timeoutSeconds: Double = 10) -> [String] {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var found = lines(url)
        while found.count < count && Date() < deadline {
            usleep(5_000)
            found = lines(url)
        }
        return found
    }

    /// The origin's request log (see the type's summary for the format).
    var originLog: [String] { Self.lines(originLogURL) }
    /// The page server's request log.
    var pageLog: [String] { Self.lines(pageLogURL) }

    /// Stops mediactl and nginx and removes every temp folder.
    func tearDown() {
        environment.tearDown()
        try? FileManager.default.removeItem(at: pageDirectory)
    }
}
