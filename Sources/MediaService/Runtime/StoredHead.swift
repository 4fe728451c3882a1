import Foundation
import HTTPCaching

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
    /// The policy's time-to-live cap: seconds of age (RFC 9111 §4.2.3, upstream `Age` included) after
    /// which the response is validated; the decided ttl plus the age at receipt.
    var policyTTL: Int64

    init(_ response: StoredResponse, contentType: String?, width: Int?, height: Int?, storage: String, policyTTL: Int64) {
        status = response.status
        fields = response.fields.map { [$0.name, $0.value] }
        requestTime = response.requestTime
        responseTime = response.responseTime
        method = response.requestMethod
        vary = response.secondaryKey.entries.map { entry in entry.value.map { [entry.name, $0] } ?? [entry.name] }
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
        return StoredResponse(status: status, fields: HTTPFields(pairs), requestTime: requestTime,
                              responseTime: responseTime, requestMethod: method, secondaryKey: key)
    }

    /// The head bytes kept in ``MediaStorage/EntryMetadata/head``: the binary format version 1
    /// (``StoredHead/binaryMagic``, see `StoredHead+Binary.swift` and docs/storage.md).
    func encoded() -> [UInt8] { binaryEncoded() }

    /// The head as JSON with sorted keys: the format written before the binary one (still read).
    func jsonEncoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// Decodes head bytes of either format: binary (first byte `0x00`, then the version; only
    /// version 1 is known) or the earlier JSON (first byte `{`). Returns `nil` for anything else,
    /// including a binary head of an unknown version (the entry is then dropped as unreadable).
    static func decode(_ bytes: [UInt8]) -> StoredHead? {
        switch bytes.first {
        case binaryMagic: return decodeBinary(bytes)
        case UInt8(ascii: "{"): return try? JSONDecoder().decode(StoredHead.self, from: Data(bytes))
        default: return nil
        }
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
