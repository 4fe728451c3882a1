import Foundation
import HTTPCaching
import MediaService
import MediaSigning
import MediaTestSupport

/// A pipeline harness over a policy with a signed tier: keys and an origin token written 0600 into a temporary
/// folder, and a signer for its key `k1`.
struct SignedURLWorld {
    /// The keys file's secret: bytes 0x00…0x1F.
    static let secret = Array(UInt8(0)...UInt8(31))
    static let token = "svc-token-9f2c"
    let folder: String
    let harness: PipelineHarness
    let signer: URLSigner

    /// - Parameters:
    ///   - required: `signedURLs.required` (false: the tier is `bearer-required` and accepts both).
    ///   - tierExtra: more tier keys, e.g. `"cors": {…}`.
    init(required: Bool = true, tierExtra: String = "", downstream: String = "private, max-age=600") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("signed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.writeSecret("k1 \(Base64URL.encode(Self.secret))\n", to: folder + "/r.keys")
        try Self.writeSecret(Self.token + "\n", to: folder + "/o.token")
        let credentials = required ? "strip" : "bearer-required"
        let policy = """
        { "tiers": {
            "signed": { "storage": "memory", "cache": "private", "credentials": "\(credentials)", "partition": "credential",
                        "maxTTL": 600, "downstreamCacheControl": "\(downstream)",
                        "signedURLs": { "keys": "\(folder)/r.keys", "maxLifetime": 900, "required": \(required) }\(tierExtra) },
            "public": { "storage": "memory" } },
          "routes": [
            { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "signed",
              "originAuthorization": { "bearerFile": "\(folder)/o.token" }, "subjectHeader": "Mediactl-Subject" },
            { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" } ] }
        """
        harness = try PipelineHarness(policyJSON: policy)
        signer = try URLSigner(keyID: "k1", secret: Self.secret)
    }

    static func writeSecret(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    /// `path` signed for `subject`, valid for `seconds` from the harness clock.
    func sign(_ path: String, query: String? = nil, subject: String, for seconds: Int64 = 300) throws -> String {
        try signer.sign(path: path, query: query, subject: subject, expires: Int64(harness.clock.now) + seconds)
    }

    func close() async {
        await harness.close()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
