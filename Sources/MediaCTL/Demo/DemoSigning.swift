import Foundation
import MediaCore
import MediaCrypto
import MediaSigning

/// The demo's signed-URL setup (docs/signed-urls.md): a keys file and an origin token made fresh, mode 0600, in
/// `<state>/demo-secrets/`, the policy file of the `web-receipts` route, and a signer. Subjects `demo-user-1` and
/// `demo-user-2` stand for the demo's two users when a web page shows their receipts.
struct DemoSigning: Sendable {
    /// The key id of the demo's keys file.
    static let keyID = "demo"
    /// The route's mount and the origin folder behind it.
    static let mount = "/web-receipts/"
    /// The name the signed part of the demo policy has in messages.
    static let sourceName = "built-in demo policy (signed URLs)"

    let keysFile: String
    let tokenFile: String
    /// The service token the demo origin requires on `/web-receipts/`.
    let token: String
    let signer: URLSigner

    /// Makes the secrets in `<stateDirectory>/demo-secrets/` (a folder outside `disk/`, `sealed/` and `audit/`).
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2) when they cannot be written.
    init(stateDirectory: String) throws(CommandError) {
        let folder = stateDirectory + "/demo-secrets"
        keysFile = folder + "/receipts.keys"
        tokenFile = folder + "/origin.token"
        do {
            let secret = try SecureRandom.bytes(count: 32)
            token = "demo-svc-" + Hex.encode(try SecureRandom.bytes(count: 12))
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            for (path, text) in [(keysFile, "\(Self.keyID) \(Base64URL.encode(secret))\n"), (tokenFile, token + "\n")] {
                guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
                else { throw CommandError(.unwritableFile, "cannot write \(path)", exitCode: .unusableInput) }
            }
            signer = try URLSigner(keyID: Self.keyID, secret: secret)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.unwritableFile, "cannot make the demo's signing keys in \(folder): \(error)", exitCode: .unusableInput)
        }
    }

    /// The policy file of the signed route: tier `signed-private` (sealed, one partition per subject) and route
    /// `web-receipts`, whose origin answers only the service token and serves each subject its own receipt.
    var policyText: String {
        """
        { "tiers": {
            "signed-private": { "storage": "encrypted-disk", "cache": "private", "credentials": "strip", "partition": "credential",
                                "maxTTL": 600, "downstreamCacheControl": "private, max-age=300", "metadata": "strip",
                                "signedURLs": { "keys": "\(keysFile)", "maxLifetime": 900 },
                                "cors": { "allowOrigins": ["https://app.example.com"] } } },
          "routes": [
            { "name": "web-receipts", "mount": "\(Self.mount)", "origin": "http://127.0.0.1:8081/web-receipts/",
              "tier": "signed-private", "originAuthorization": { "bearerFile": "\(tokenFile)" },
              "subjectHeader": "Mediactl-Subject" } ] }
        """
    }

    /// `path` signed for `subject`, valid for five minutes.
    func sign(_ path: String, subject: String) -> String {
        (try? signer.sign(path: path, subject: subject, expires: Int64(Date().timeIntervalSince1970) + 300)) ?? path
    }
}
