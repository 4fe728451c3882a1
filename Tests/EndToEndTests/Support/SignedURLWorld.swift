import Foundation
import MediaSigning

/// docs/examples/signed-urls/policy.json run for real: `mediactl serve` with that policy (its routes pointed at a real
/// nginx origin), the keys file and the origin token written 0600 next to it, and a signer for its key.
///
/// The origin's `/signed/receipts/` answers only `Authorization: Bearer` ``token`` and serves each subject its own
/// receipt (``receipt(for:)``), chosen by `Mediactl-Subject`; every request there is logged to ``signedLog`` as
/// `<uri> auth=<Authorization> sub=<Mediactl-Subject> origin=<Origin> status=<status>`. `attachments` is the
/// origin's `/receipts/` (bearer `t1`/`t2`, `NginxOrigin`).
final class SignedURLWorld: @unchecked Sendable {
    /// The keys file's secret for ``keyID``: bytes 0x00…0x1F (the first test vector's).
    static let secret = Array(UInt8(0)...UInt8(31))
    static let keyID = "2026-12"
    /// The service token mediactl sends the origin.
    static let token = "svc-e2e-4d1f7a0c9b"
    /// Subject → the corpus file the origin serves it.
    static let receipts = ["alice": "r-7731.png", "bob": "r-7732.jpg"]

    let world: ServeEnvironment
    let signer: URLSigner
    var keysFile: URL { world.policiesDirectory.appendingPathComponent("keys/receipts.keys") }
    var tokenFile: URL { world.policiesDirectory.appendingPathComponent("secrets/receipts-origin.token") }
    var signedLog: [String] {
        ((try? String(contentsOf: world.origin.prefix.appendingPathComponent("signed.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// - Parameter edit: changes to the example policy text (after the origins are pointed at nginx).
    init(extraServerConfig: String = "", edit: @escaping @Sendable (String) -> String = { $0 }) throws {
        let map = Self.receipts.map { "\"\($0.key)\" \($0.value);" }.joined(separator: " ")
        let http = """
            map $http_mediactl_subject $subject_receipt { default ""; \(map) }
            log_format signed '$request_uri auth=$http_authorization sub=$http_mediactl_subject origin=$http_origin status=$status';
            """
        let server = """
            location /signed/receipts/ {
                access_log signed.log signed;
                if ($http_authorization != "Bearer \(Self.token)") { return 401; }
                if ($subject_receipt = "") { return 403; }
                add_header Cache-Control "private, max-age=60";
                rewrite ^ /receipts/$subject_receipt break;
            }
            location /cors-echo/ {
                access_log signed.log signed;
                alias \(NginxOrigin.fixturesDirectory.path)/catalog/;
                add_header Cache-Control "public, max-age=600";
                add_header Access-Control-Allow-Origin "*";
                add_header Vary "Origin";
            }
            \(extraServerConfig)
            """
        let example = MediactlProcess.packageRoot.appendingPathComponent("docs/examples/signed-urls/policy.json")
        let text = try String(contentsOf: example, encoding: .utf8)
        world = try ServeEnvironment(originServerConfig: server, originHTTPConfig: http) { base in
            edit(text.replacingOccurrences(of: "http://127.0.0.1:8081/receipts/", with: base + "/signed/receipts/")
                .replacingOccurrences(of: "http://127.0.0.1:8081/attachments/", with: base + "/receipts/"))
        }
        signer = try URLSigner(keyID: Self.keyID, secret: Self.secret)
        try Self.writeSecret("# e2e\n\(Self.keyID) \(Base64URL.encode(Self.secret))\n", to: keysFile)
        try Self.writeSecret(Self.token + "\n", to: tokenFile)
    }

    static func writeSecret(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// `path` (and `query`) signed for `subject`, expiring `seconds` from now (wall clock).
    func sign(_ path: String, query: String? = nil, subject: String, in seconds: Int64 = 300, kid: String? = nil) throws -> String {
        let now = Int64(Date().timeIntervalSince1970)
        if let kid {
            return try URLSigner(keyID: kid, secret: Self.secret).sign(path: path, query: query, subject: subject, expires: now + seconds)
        }
        return try signer.sign(path: path, query: query, subject: subject, expires: now + seconds)
    }

    /// The bytes of the corpus receipt the origin serves `subject`.
    static func receipt(for subject: String) -> [UInt8] { Fixtures.bytes("receipts/" + receipts[subject]!) }

    func tearDown() { world.tearDown() }
}
