import Foundation
import HTTPServer
import MediaAudit
import MediaCore
import MediaCrypto
import MediaTestSupport
import Testing

@testable import MediaServer

/// The admin listener's C2SP tlog-tiles over the audit log: the checkpoint, tiles and entry bundles a monitor reads,
/// their caching, and the refusals.
@Suite struct AuditTileEndpointTests {
    static let signer = try! NoteSigner(name: "mediactl/audit/test", key: Ed25519SigningKey(seed: Array(repeating: 3, count: 32)))

    /// A state directory whose log holds 300 records and their checkpoint.
    static func state() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let log = try AuditLog(stateDirectory: folder.path, signer: signer)
        let entry = AuditEntry(event: .start, reason: try ReasonCode("clean-start"))
        for _ in 0..<300 { try log.append(entry) }
        try log.close()
        return folder
    }

    func get(_ handler: AdminHTTPHandler, _ path: String, method: HTTPMethod = "GET") async -> HTTPServerResponse {
        let request = HTTPServerRequest(method: method, target: "/_mediactl/audit/" + path)
        #expect(handler.handleSync(request) == nil, "\(path) is answered on a task, off the event loop")
        return await handler.handle(request)
    }

    func problem(_ status: HTTPStatus, _ code: String, _ detail: String) -> [UInt8] {
        MediaHTTPHandler.problem(status, code: code, detail: detail).body
    }

    @Test func aMonitorRebuildsTheSignedRootFromTheTiles() async throws {
        let folder = try Self.state()
        defer { folder.remove() }
        let harness = try MediaHTTPHandlerTests.harness()
        let handler = AdminHTTPHandler(service: harness.service, auditTiles: AuditTileEndpoint(stateDirectory: folder.path))
        let note = await get(handler, "checkpoint")
        #expect(note.status == 200)
        #expect(note.field("Content-Type") == "text/plain; charset=utf-8")
        #expect(note.field("Cache-Control") == "no-cache")
        let checkpoint = try TreeCheckpoint(text: NoteVerifier(Self.signer).open(String(decoding: note.body, as: UTF8.self)))
        #expect(checkpoint.size == 300)
        let full = await get(handler, "tile/0/000")
        #expect(full.status == 200)
        #expect(full.body.count == 8_192)
        #expect(full.field("Content-Type") == "application/octet-stream")
        #expect(full.field("Cache-Control") == "public, max-age=31536000, immutable")
        let partial = await get(handler, "tile/0/001.p/44")
        #expect(partial.body.count == 44 * 32)
        #expect(partial.field("Cache-Control") == "public, max-age=60")
        let upper = await get(handler, "tile/1/000.p/1")
        let hashes = { (bytes: [UInt8]) in stride(from: 0, to: bytes.count, by: 32).map { SHA256Digest(bytes: Array(bytes[$0..<($0 + 32)])) } }
        #expect(upper.body == MerkleTree.root(hashes(full.body)[...]).bytes)
        #expect(MerkleTree.nodeHash(SHA256Digest(bytes: upper.body), MerkleTree.root(hashes(partial.body)[...])) == checkpoint.root)
        let bundle = await get(handler, "tile/entries/001.p/44")
        #expect(bundle.body.count == 44 * 34)
        let entries = stride(from: 0, to: bundle.body.count, by: 34).map { SHA256Digest(bytes: Array(bundle.body[($0 + 2)..<($0 + 34)])) }
        #expect(entries.map { MerkleTree.leafHash(digest: $0) } == hashes(partial.body))
        let head = await get(handler, "tile/0/000", method: "HEAD")
        #expect(head.status == 200)
    }

    @Test func refusalsNameWhatIsWrong() async throws {
        let folder = try Self.state()
        defer { folder.remove() }
        let harness = try MediaHTTPHandlerTests.harness()
        let handler = AdminHTTPHandler(service: harness.service, auditTiles: AuditTileEndpoint(stateDirectory: folder.path))
        let missing = await get(handler, "tile/0/001")
        #expect(missing.status == 404)
        #expect(missing.body == problem(404, "no-tile", "the audit log does not reach tile/0/001 yet"))
        let invalid = await get(handler, "tile/0/1")
        #expect(invalid.status == 400)
        #expect(invalid.body == problem(400, "invalid-tile-path", "tile/0/1: the index is 3-digit path elements, all but the last starting with x"))
        let post = await get(handler, "tile/0/000", method: "POST")
        #expect(post.status == 405)
        #expect(post.field("Allow") == "GET, HEAD")
        let other = await get(handler, "leaves")
        #expect(other.body == problem(404, "no-route", "no audit resource at /_mediactl/audit/leaves (checkpoint, tile/…)"))
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let fresh = AdminHTTPHandler(service: harness.service, auditTiles: AuditTileEndpoint(stateDirectory: empty.path))
        #expect(await get(fresh, "checkpoint").body == problem(404, "no-checkpoint", "the audit log has written no checkpoint yet"))
        let without = AdminHTTPHandler(service: harness.service)
        #expect(await get(without, "checkpoint").body == problem(404, "no-route", "no admin endpoint at /_mediactl/audit/ in this server"))
    }
}
