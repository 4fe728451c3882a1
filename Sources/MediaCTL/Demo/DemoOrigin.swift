import Foundation
import HTTPServer
import MediaCore
import MediaCrypto
import Synchronization

/// The embedded origin of `mediactl demo`: serves the bundled samples (``DemoSamples``) from memory
/// with per-tier caching headers, like the image origins behind a BFF.
///
/// | folder | answer |
/// |---|---|
/// | `catalog/`, `large/` | `Cache-Control: public, max-age=31536000, immutable`, `ETag` |
/// | `avatars/` | `Cache-Control: max-age=60`, `ETag`; `?v=2` serves the `.next` picture (`u1001.jpg?v=2` → `u1001.next.jpg`) |
/// | `uploads/` | `Cache-Control: max-age=60`, `ETag` |
/// | `receipts/` | `401` unless `Authorization: Bearer demo-token-u1` or `…-u2`; then `Cache-Control: private, max-age=60`, `ETag` |
/// | `one-time/` | `Cache-Control: no-store` |
/// | `web-receipts/` | `401` unless `Authorization: Bearer <serviceToken>`; then the receipt of `Mediactl-Subject` (`demo-user-1`: the requested file; `demo-user-2`: `r-7732.jpg`), `Cache-Control: private, max-age=60` |
///
/// `If-None-Match` with the current `ETag` is answered `304`. Unknown paths get `404`, methods
/// other than GET and HEAD `405`. ``requestCount`` counts every request answered.
public final class DemoOrigin: HTTPHandling {
    /// The bearer tokens the receipts folder accepts: `demo-token-u1`, `demo-token-u2`.
    public static let tokens = ["demo-token-u1", "demo-token-u2"]

    /// One servable file.
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String
    }

    /// Files by request path, such as `/catalog/coffee-237a7131.jpg` or `/avatars/u1001.next.jpg`.
    let files: [String: File]
    /// The token `web-receipts/` requires (the signed route's `originAuthorization`), or `nil`: that folder answers 404.
    let serviceToken: String?
    private let requests = Atomic<Int>(0)

    /// Loads `samples` into memory.
    /// - Throws: ``CommandError`` `unreadable-file` (exit 2): `cannot read the bundled samples: <reason>`.
    public init(samples: [DemoSamples.Sample], serviceToken: String? = nil) throws(CommandError) {
        self.serviceToken = serviceToken
        var files: [String: File] = [:]
        for sample in samples {
            guard let data = FileManager.default.contents(atPath: sample.path) else {
                throw CommandError(
                    .unreadableFile, "cannot read the bundled samples: cannot read \(sample.requestPath)",
                    exitCode: .unusableInput)
            }
            let bytes = [UInt8](data)
            let etag = "\"" + String(SHA256.hash(bytes).hex.prefix(16)) + "\""
            files[sample.requestPath] = File(bytes: bytes, contentType: Self.contentType(sample.name), etag: etag)
        }
        self.files = files
    }

    /// Requests answered so far.
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        answer(request)
    }

    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        answer(request)
    }

    /// The answer to `request` (everything is in memory, so it never suspends).
    func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        requests.add(1, ordering: .relaxed)
        guard request.method.isRead else {
            var response = HTTPServerResponse.problem(status: 405, detail: "the demo origin answers GET and HEAD")
            response.headerFields.append(.allow, "GET, HEAD")
            return response
        }
        let path = String(request.path)
        let folder = path.split(separator: "/").first.map(String.init) ?? ""
        var resolved = path
        if folder == "web-receipts" {
            guard let serviceToken, request.field(.authorization) == "Bearer " + serviceToken else {
                var response = HTTPServerResponse.problem(status: 401, detail: "the service token is required")
                response.headerFields.append(.wwwAuthenticate, "Bearer")
                return response
            }
            // Each subject its own receipt: a signed URL is the same path for every user.
            switch request.field("Mediactl-Subject") {
            case "demo-user-1"?: resolved = "/receipts/" + path.split(separator: "/").dropFirst().joined(separator: "/")
            case "demo-user-2"?: resolved = "/receipts/r-7732.jpg"
            default: return .problem(status: 403, detail: "no receipts for this subject")
            }
        }
        if folder == "avatars", let version = Self.queryValue("v", in: request.query), version != "1" {
            guard version == "2" else { return .problem(status: 404, detail: "no version \(version) of \(path)") }
            resolved = Self.nextVersion(of: path)
        }
        guard let file = files[resolved] else { return .problem(status: 404, detail: "no sample at \(path)") }
        var fields: HTTPFields = [(.contentType, file.contentType)]
        switch folder {
        case "catalog", "large":
            fields.append(.cacheControl, "public, max-age=31536000, immutable")
            fields.append(.eTag, file.etag)
        case "avatars", "uploads":
            fields.append(.cacheControl, "max-age=60")
            fields.append(.eTag, file.etag)
        case "web-receipts":
            fields.append(.cacheControl, "private, max-age=60")
            fields.append(.eTag, file.etag)
        case "receipts":
            let authorization = request.field(.authorization) ?? ""
            guard Self.tokens.contains(where: { authorization == "Bearer " + $0 }) else {
                var response = HTTPServerResponse.problem(status: 401, detail: "a demo bearer token is required")
                response.headerFields.append(.wwwAuthenticate, "Bearer")
                return response
            }
            fields.append(.cacheControl, "private, max-age=60")
            fields.append(.eTag, file.etag)
        default:
            fields.append(.cacheControl, "no-store")
        }
        if folder != "one-time", let condition = request.field(.ifNoneMatch),
            condition.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag })
        {
            fields.remove(.contentType)
            return HTTPServerResponse(status: 304, headerFields: fields)
        }
        return HTTPServerResponse(status: 200, headerFields: fields, body: file.bytes)
    }

    /// `/avatars/u1001.jpg` → `/avatars/u1001.next.jpg`.
    static func nextVersion(of path: String) -> String {
        guard let dot = path.lastIndex(of: "."), path[dot...].contains("/") == false else { return path + ".next" }
        return path[..<dot] + ".next" + path[dot...]
    }

    /// The value of `name` in a query such as `v=2&w=100`, or `nil`.
    static func queryValue(_ name: String, in query: Substring?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// The media type for a file name's extension (what a static file server would declare).
    static func contentType(_ name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        default: return "application/octet-stream"
        }
    }
}
