import HTTPCaching
import MediaCore
@testable import MediaService
import Testing

/// Runs requests through the memory-hit fast path and through the full path and expects the same answer.
enum HitPathSupport {
    /// Default tiers plus a memory tier at `/mcat/` (shared, credentials stripped) and a `forward`
    /// tier partitioned per credential at `/fwd/`.
    static let policy = """
    { "tiers": {
        "public":  { "storage": "disk", "cache": "shared", "credentials": "strip",
                     "maxTTL": 31536000, "maxObjectBytes": 10485760, "maxPixels": 50000000,
                     "contentTypes": ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"],
                     "downstreamCacheControl": "public, max-age=31536000, immutable", "forwardRequestHeaders": ["Accept"] },
        "public-mem": { "storage": "memory", "cache": "shared", "credentials": "strip", "maxTTL": 31536000,
                     "downstreamCacheControl": "public, max-age=31536000, immutable" },
        "avatar":  { "storage": "disk", "cache": "shared", "credentials": "strip",
                     "versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31536000 },
        "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600, "downstreamCacheControl": "private, no-store" },
        "shared-fwd": { "storage": "memory", "cache": "shared", "credentials": "forward",
                     "partition": "credential", "maxTTL": 600 } },
      "routes": [
        { "name": "catalog",  "mount": "/catalog/",  "origin": "http://origin.test/catalog/",  "tier": "public" },
        { "name": "mcat",     "mount": "/mcat/",     "origin": "http://origin.test/mcat/",     "tier": "public-mem" },
        { "name": "avatars",  "mount": "/avatars/",  "origin": "http://origin.test/avatars/",  "tier": "avatar" },
        { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" },
        { "name": "fwd",      "mount": "/fwd/",      "origin": "http://origin.test/fwd/",      "tier": "shared-fwd" } ] }
    """

    /// Expects two answers to be the same: both absent, or equal status, every field in order, body and outcome.
    static func expectSame(_ fast: ServiceResponse?, _ full: ServiceResponse?,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect((fast == nil) == (full == nil), "one path answered, the other did not", sourceLocation: sourceLocation)
        guard let fast, let full else { return }
        #expect(fast.status == full.status, sourceLocation: sourceLocation)
        #expect(fast.fields.fields == full.fields.fields, sourceLocation: sourceLocation)
        #expect(fast.body == full.body, sourceLocation: sourceLocation)
        #expect(fast.outcome == full.outcome, sourceLocation: sourceLocation)
    }

    /// Answers `request` with ``MediaService/handleIfCached(_:)`` and with the full path (no fast
    /// path), expects the same answer, and says whether the fast path answered it.
    @discardableResult
    static func compare(_ service: MediaService, _ request: ServiceRequest,
                        sourceLocation: SourceLocation = #_sourceLocation) -> (response: ServiceResponse?, fast: Bool) {
        let fast = service.hitPath.answer(request)
        let answer = service.handleIfCached(request)
        var admitted: AdmittedRequest?
        let full = service.cachedAnswerByFullPath(request, resolved: nil, readsFiles: true, admitted: &admitted)
        expectSame(answer, full, sourceLocation: sourceLocation)
        if let fast { expectSame(fast, full, sourceLocation: sourceLocation) }
        return (answer, fast != nil)
    }

    /// ``MediaService/handle(_:)`` against admission + `serve` (the full async path), for requests
    /// answered from storage.
    static func compareAsync(_ service: MediaService, _ request: ServiceRequest,
                             sourceLocation: SourceLocation = #_sourceLocation) async -> ServiceResponse {
        let answer = await service.handle(request)
        guard case .success(let context) = service.admit(request) else {
            Issue.record("the request was refused", sourceLocation: sourceLocation)
            return answer
        }
        let full = service.finished(await service.cacheLookup.serve(context).response.withoutBody(for: request.method), request,
                                    context)
        expectSame(answer, full, sourceLocation: sourceLocation)
        return answer
    }

    static func request(_ target: String, _ fields: [(String, String)] = [], method: String = "GET",
                        policy: RequestCachePolicy = .useProtocolCachePolicy) -> ServiceRequest {
        ServiceRequest(method: HTTPMethod(method), target: target, fields: HTTPFields(fields), cachePolicy: policy)
    }
}
