import Foundation
import HTTPCaching
import MediaCore

/// The response head kept with every stored entry (``MediaStorage/EntryMetadata/head``): the RFC 9111
/// stored response plus what validation learned about the body. Encoded as JSON.
struct StoredHead: Codable, Sendable, Hashable {
    var status: Int
    var fields: [[String]]
    var requestTime: Int64
    var responseTime: Int64
    var method: String
    /// Secondary key entries: `[name, value]`, or `[name]` for an absent field.
    var vary: [[String]]
    /// The sniffed media type, or `nil` for tiers that do not validate images.
    var contentType: String?
    var width: Int?
    var height: Int?
    /// The decided storage class (`disk`, `encrypted-disk`, `memory`); hot copies keep it.
    var storage: String
    /// ``storage`` as an answer's provenance: stored in that class.
    var provenance: Provenance { .stored(StorageClass(rawValue: storage) ?? .none) }
    /// The policy's time-to-live cap: seconds of age (RFC 9111 §4.2.3, upstream `Age` included) after
    /// which the response is validated; the decided ttl plus the age at receipt.
    var policyTTL: Int64
    /// The `ETag` served instead of the origin's (which stays in ``fields`` for validation with the origin):
    /// set on originals whose metadata was stripped (docs/variants.md), else `nil`.
    var servedETag: String? = nil
    /// Variants: hex SHA-256 of the source's store key (the audit `derivedFrom`), else `nil`.
    var derivedFrom: String? = nil
    /// Variants: the normalised parameters (the audit `transform`), else `nil`.
    var transform: String? = nil
    /// Variants: hex SHA-256 of the source body the variant was derived from, else `nil`.
    var sourceDigest: String? = nil
    /// Variants of an animated source (more than one frame), of which the first frame was written: its frame count;
    /// else `nil`. The answer says so in `Mediactl-Animation`.
    var sourceFrames: Int? = nil
    /// Sources on a tier with variants: hex SHA-256 of the stored body, computed once when it is stored, so a variant
    /// miss reads it instead of hashing the source again (``ImageDerivation``); `nil` elsewhere and for older entries.
    var bodyDigest: String? = nil
    /// The targeted cache-control fields honoured when the response was stored (RFC 9213,
    /// ``HTTPCaching/StoredResponse/targets``) if its fields have one of them, else `nil`.
    var targeted: [String]? = nil

    /// Copies the fields a new head of the same stored body keeps (a 304's update): served `ETag`, derivation and the
    /// body's digest.
    mutating func keepDerivation(of other: StoredHead) {
        servedETag = other.servedETag
        derivedFrom = other.derivedFrom
        transform = other.transform
        sourceDigest = other.sourceDigest
        sourceFrames = other.sourceFrames
        bodyDigest = other.bodyDigest
    }

    init(_ response: StoredResponse, contentType: String?, width: Int?, height: Int?, storage: String, policyTTL: Int64) {
        status = response.status.code
        fields = response.fields.map { [$0.name, $0.value] }
        requestTime = response.requestTime
        responseTime = response.responseTime
        method = response.requestMethod.rawValue
        vary = response.secondaryKey.entries.map { entry in entry.value.map { [entry.name, $0] } ?? [entry.name] }
        self.contentType = contentType
        self.width = width
        self.height = height
        self.storage = storage
        self.policyTTL = policyTTL
        // Kept only when a targeted field is there: for any other response the list changes nothing.
        targeted = TargetedCacheControl.isPresent(in: response.fields, targets: response.targets) ? response.targets : nil
    }

    /// Memberwise (tests, decoders).
    init(status: Int, fields: [[String]], requestTime: Int64, responseTime: Int64, method: String, vary: [[String]],
         contentType: String?, width: Int?, height: Int?, storage: String, policyTTL: Int64) {
        self.status = status
        self.fields = fields
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.method = method
        self.vary = vary
        self.contentType = contentType
        self.width = width
        self.height = height
        self.storage = storage
        self.policyTTL = policyTTL
    }

    var storedResponse: StoredResponse {
        let pairs = fields.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        let key = SecondaryKey(entries: vary.compactMap { parts in
            parts.isEmpty ? nil : SecondaryKey.Entry(name: parts[0], value: parts.count > 1 ? parts[1] : nil)
        })
        return StoredResponse(status: HTTPStatus(code: status), fields: HTTPFields(pairs), requestTime: requestTime,
                              responseTime: responseTime, requestMethod: HTTPMethod(method), secondaryKey: key, targets: targeted ?? [])
    }

    /// The head bytes kept in ``MediaStorage/EntryMetadata/head``: JSON with sorted keys, written by
    /// hand (`StoredHead+JSON.swift`), byte for byte what `JSONEncoder` with `.sortedKeys` writes.
    func encoded() -> [UInt8] { jsonBytes() }

    /// Decodes head bytes (JSON, as ``encoded()`` and every earlier version wrote them); `nil` when
    /// they are not a head.
    static func decode(_ bytes: [UInt8]) -> StoredHead? {
        try? JSONDecoder().decode(StoredHead.self, from: Data(bytes))
    }
}

/// A stored head decoded once, with its RFC 9111 stored response (kept on the entry, see
/// ``MediaStorage/StoredEntry/decoded(as:_:)``).
final class DecodedHead: Sendable {
    let head: StoredHead
    let response: StoredResponse

    init?(_ bytes: [UInt8]) {
        guard let head = StoredHead.decode(bytes) else { return nil }
        self.head = head
        response = head.storedResponse
    }
}
