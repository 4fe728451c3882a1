import HTTPCaching
import HTTPServer
import MediaAudit
import MediaCore

/// The audit log as a C2SP tiled transparency log (https://c2sp.org/tlog-tiles) on the admin listener, under
/// `/_mediactl/audit/`, so an outside monitor or witness follows it with standard tooling:
/// - `GET /_mediactl/audit/checkpoint`: the latest signed checkpoint (`audit/tree-checkpoint`), `text/plain;
///   charset=utf-8`, `Cache-Control: no-cache` (it changes); `404 no-checkpoint` before the log wrote one.
/// - `GET /_mediactl/audit/tile/<L>/<N>[.p/<W>]`: the tree's hashes (``MediaAudit/AuditTiles``);
///   `GET /_mediactl/audit/tile/entries/<N>[.p/<W>]`: entry bundles, each entry a record's `hash`. Both
///   `application/octet-stream`; a full tile `Cache-Control: public, max-age=31536000, immutable` (it never changes), a
///   partial one `public, max-age=60`. `400 invalid-tile-path` for a path not in the canonical form, `404 no-tile` for
///   one the log does not reach yet.
/// - `HEAD` answers as `GET` without the body; other methods `405` (`Allow: GET, HEAD`).
///
/// The tiles are read from `audit/tree-entries`, which `audit prune` keeps, so a pruned log still serves them.
public struct AuditTileEndpoint: Sendable {
    /// The prefix of its paths: `/_mediactl/audit/`.
    public static let prefix = "/_mediactl/audit/"

    /// The audit folder (`<state>/audit`).
    public let directory: String
    /// The full tiles made so far (shared by the endpoint's copies): a tile above them is made from their hashes.
    public let cache: AuditTileCache

    public init(stateDirectory: String, cache: AuditTileCache = AuditTileCache()) {
        directory = stateDirectory + "/audit"
        self.cache = cache
    }

    /// Whether `path` is one of its paths.
    public static func answers(_ path: some StringProtocol) -> Bool { path.hasPrefix(prefix) }

    /// The answer to a request for one of its paths (``answers(_:)``). Reads files: call it off the event loop.
    public func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard request.method == .get || request.method == .head else {
            var refused = MediaHTTPHandler.problem(405, code: "method-not-allowed", detail: "\(request.path) answers GET and HEAD only")
            refused.headerFields.append(.allow, "GET, HEAD")
            return refused
        }
        let resource = request.path.dropFirst(Self.prefix.count)
        if resource == "checkpoint" {
            guard let note = try? AuditTiles.checkpoint(directory: directory), !note.isEmpty else {
                return MediaHTTPHandler.problem(404, code: "no-checkpoint", detail: "the audit log has written no checkpoint yet")
            }
            return Self.response(note, contentType: "text/plain; charset=utf-8", cacheControl: "no-cache")
        }
        guard resource.hasPrefix("tile/") else {
            return MediaHTTPHandler.problem(404, code: "no-route", detail: "no audit resource at \(request.path) (checkpoint, tile/…)")
        }
        let tile: TilePath
        do {
            tile = try TilePath(path: String(resource.dropFirst(5)))
        } catch {
            return MediaHTTPHandler.problem(400, code: "invalid-tile-path", detail: error.context)
        }
        let bytes: [UInt8]?
        do {
            bytes = try AuditTiles.bytes(tile, directory: directory, cache: cache)
        } catch {
            return MediaHTTPHandler.problem(500, code: "audit-unreadable", detail: "\(error)")
        }
        guard let bytes else {
            return MediaHTTPHandler.problem(404, code: "no-tile", detail: "the audit log does not reach tile/\(tile.path) yet")
        }
        return Self.response(bytes, contentType: "application/octet-stream",
                             cacheControl: tile.isFull ? "public, max-age=31536000, immutable" : "public, max-age=60")
    }

    private static func response(_ body: [UInt8], contentType: String, cacheControl: String) -> HTTPServerResponse {
        var fields = HTTPFields()
        fields.append(.contentType, contentType)
        fields.append(.cacheControl, cacheControl)
        fields.append(.xContentTypeOptions, "nosniff")
        return HTTPServerResponse(status: 200, headerFields: fields, body: body)
    }
}
