import Foundation
import HTTPCaching
import MediaAudit
import MediaService
import MediaTestSupport
import Synchronization

/// Test data and helpers shared by the pipeline suites.
enum PipelineSupport {
    /// A valid 1×1 PNG carrying `marker` in a `tEXt` chunk, so a test can look for the marker in
    /// responses, files and logs (CASES.md notation `MARK-U1`).
    static func markedPNG(_ marker: String) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += ImageBuilder.pngChunk("IHDR", ImageBuilder.be32(1) + ImageBuilder.be32(1) + [8, 0, 0, 0, 0])
        out += ImageBuilder.pngChunk("tEXt", Array("Comment".utf8) + [0] + Array(marker.utf8))
        out += ImageBuilder.pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        out += ImageBuilder.pngChunk("IEND", [])
        return out
    }

    /// The top-level members of a problem+json body, or `nil` when it is not a JSON object.
    static func problemMembers(_ response: ServiceResponse) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
    }

    /// The `code` member of a problem+json body.
    static func problemCode(_ response: ServiceResponse) -> String? {
        problemMembers(response)?["code"] as? String
    }

    /// `event` or `event:reason` of every record after `start`, for exact sequence checks.
    static func events(_ records: [AuditRecord]) -> [String] {
        // `start` and the `policy` batch that follows it open every log; tests of reloads read them directly.
        records.filter { $0.entry.event.rawValue != "start" && $0.entry.event.rawValue != "policy" }.map { record in
            let event = record.entry.event.rawValue
            guard let reason = record.entry.reason?.rawValue else { return event }
            return event + ":" + reason
        }
    }

    /// Runs `count` copies of `body` concurrently; results in index order.
    static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async -> T) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count { group.addTask { (index, await body(index)) } }
            var out: [(Int, T)] = []
            for await item in group { out.append(item) }
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Default tiers plus `forward` tiers (credentials reach the origin, partitioned per
    /// credential, memory storage): `shared-fwd` (RFC 9111 shared role) at `/fwd/` and
    /// `private-fwd` (private role) at `/pfwd/`, and a memory-backed private tier at `/mem/`.
    static let forwardingPolicy = """
    { "tiers": {
        "public":  { "storage": "disk", "cache": "shared", "credentials": "strip",
                     "maxTTL": 31536000, "maxObjectBytes": 10485760, "maxPixels": 50000000,
                     "downstreamCacheControl": "public, max-age=31536000, immutable" },
        "avatar":  { "storage": "disk", "cache": "shared", "credentials": "strip",
                     "versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31536000 },
        "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600, "downstreamCacheControl": "private, no-store" },
        "private-mem": { "storage": "memory", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600 },
        "shared-fwd": { "storage": "memory", "cache": "shared", "credentials": "forward",
                     "partition": "credential", "maxTTL": 600 },
        "private-fwd": { "storage": "memory", "cache": "private", "credentials": "forward",
                     "partition": "credential", "maxTTL": 600 },
        "no-store":{ "storage": "none" } },
      "routes": [
        { "name": "catalog",  "mount": "/catalog/",  "origin": "http://origin.test/catalog/",  "tier": "public" },
        { "name": "avatars",  "mount": "/avatars/",  "origin": "http://origin.test/avatars/",  "tier": "avatar" },
        { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" },
        { "name": "mem",      "mount": "/mem/",      "origin": "http://origin.test/mem/",      "tier": "private-mem" },
        { "name": "fwd",      "mount": "/fwd/",      "origin": "http://origin.test/fwd/",      "tier": "shared-fwd" },
        { "name": "pfwd",     "mount": "/pfwd/",     "origin": "http://origin.test/pfwd/",     "tier": "private-fwd" },
        { "name": "one-time", "mount": "/one-time/", "origin": "http://origin.test/one-time/", "tier": "no-store" } ] }
    """
}

extension ServiceResponse {
    /// The body as UTF-8 text (lossy), for marker checks.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// An origin that holds every fetch until ``open()``, then answers through a closure of
/// (request, 1-based call number): lets a test line up concurrent callers without sleeping.
final class GatedOrigin: OriginFetching {
    let gate = Gate()
    private let handler: ScriptedOrigin.Handler
    private let state = Mutex<[OriginRequest]>([])

    private let ungatedCalls: Int

    /// - Parameter ungatedCalls: how many first calls answer without waiting for the gate. Default: 0.
    init(ungatedCalls: Int = 0, _ handler: @escaping ScriptedOrigin.Handler) {
        self.handler = handler
        self.ungatedCalls = ungatedCalls
    }

    var requests: [OriginRequest] { state.withLock { $0 } }
    var callCount: Int { state.withLock { $0.count } }
    func open() async { await gate.open() }

    func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        let number = state.withLock { requests -> Int in
            requests.append(request)
            return requests.count
        }
        if number > ungatedCalls { await gate.wait() }
        return try handler(request, number)
    }
}
