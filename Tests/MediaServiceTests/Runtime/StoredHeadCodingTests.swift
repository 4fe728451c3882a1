import Foundation
import HTTPCaching
import MediaCore
@testable import MediaService
import Testing

/// The hand-written stored-head JSON: the same bytes `JSONEncoder` (`.sortedKeys`) writes, and read
/// back by the decoder as before.
@Suite struct StoredHeadCodingTests {
    static func small() -> StoredHead {
        StoredHead(status: 200, fields: [["a", "b"]], requestTime: 1, responseTime: 2, method: "GET",
                   vary: [["accept"]], contentType: nil, width: nil, height: nil, storage: "memory", policyTTL: 3)
    }

    static func full() -> StoredHead {
        let fields = HTTPFields([("Cache-Control", "public, max-age=31536000, immutable"), ("ETag", "\"v1\""),
                                 ("Content-Type", "image/jpeg"), ("Content-Length", "16092"),
                                 ("X-Note", "caf\u{E9} \u{1F600} \\ \u{7F}\u{2028}")])
        let key = SecondaryKey(entries: [.init(name: "accept", value: "image/avif,image/*"), .init(name: "dpr", value: nil)])
        let response = StoredResponse(status: 200, fields: fields, requestTime: 1_764_400_000,
                                      responseTime: 1_764_400_001, requestMethod: "GET", secondaryKey: key)
        return StoredHead(response, contentType: "image/jpeg", width: 640, height: 427, storage: "encrypted-disk",
                          policyTTL: 31_536_000)
    }

    /// Every byte below 0x20 plus the characters Foundation escapes.
    static let awkward: String = {
        var text = ""
        for byte in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(byte))) }
        return text + "\"\\/\u{7F}é\u{2028}😀 end"
    }()

    static func heads() -> [StoredHead] {
        var heads = [small(), full()]
        var digested = full()
        digested.bodyDigest = String(repeating: "ab", count: 32)
        digested.sourceDigest = String(repeating: "cd", count: 32)
        digested.sourceFrames = 24
        heads.append(digested)
        var negative = small()
        negative.requestTime = -5
        negative.policyTTL = Int64.min
        negative.responseTime = Int64.max
        negative.fields = []
        negative.vary = []
        heads.append(negative)
        var partial = full()
        partial.width = nil
        partial.contentType = ""
        heads.append(partial)
        var onlyWidth = small()
        onlyWidth.width = 0
        heads.append(onlyWidth)
        var odd = small()
        odd.fields = [["lonely"], [], ["a", "b", "c"], [awkward, awkward]]
        odd.method = awkward
        odd.storage = "/"
        odd.contentType = awkward
        heads.append(odd)
        return heads
    }

    @Test func bytesEqualJSONEncoderSortedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for head in Self.heads() {
            let expected = Array(try encoder.encode(head))
            #expect(head.encoded() == expected, "\(String(decoding: head.encoded(), as: UTF8.self))")
            #expect(StoredHead.decode(head.encoded()) == head)
        }
    }

    @Test func exactBytesOfASmallHead() {
        let text = #"{"fields":[["a","b"]],"method":"GET","policyTTL":3,"requestTime":1,"responseTime":2,"status":200,"storage":"memory","vary":[["accept"]]}"#
        #expect(Self.small().encoded() == Array(text.utf8))
        var sized = Self.small()
        sized.contentType = "image/png"
        sized.width = 1
        sized.height = 20
        let sizedText = #"{"contentType":"image\/png","fields":[["a","b"]],"height":20,"method":"GET","policyTTL":3,"requestTime":1,"responseTime":2,"status":200,"storage":"memory","vary":[["accept"]],"width":1}"#
        #expect(sized.encoded() == Array(sizedText.utf8))
    }

    /// A head as an earlier build stored it (through `JSONEncoder`).
    static let storedEarlier = #"{"contentType":"image\/jpeg","fields":[["Cache-Control","max-age=600"],["Content-Type","image\/jpeg"],["Content-Length","16092"]],"height":427,"method":"GET","policyTTL":600,"requestTime":1764400000,"responseTime":1764400001,"status":200,"storage":"disk","vary":[["accept","image\/*"],["dpr"]],"width":640}"#

    @Test func readsHeadsStoredByEarlierBuildsAndWritesTheSameBytes() throws {
        let head = try #require(StoredHead.decode(Array(Self.storedEarlier.utf8)))
        #expect(head == StoredHead(status: 200, fields: [["Cache-Control", "max-age=600"], ["Content-Type", "image/jpeg"],
                                                         ["Content-Length", "16092"]],
                                   requestTime: 1_764_400_000, responseTime: 1_764_400_001, method: "GET",
                                   vary: [["accept", "image/*"], ["dpr"]], contentType: "image/jpeg", width: 640,
                                   height: 427, storage: "disk", policyTTL: 600))
        #expect(head.encoded() == Array(Self.storedEarlier.utf8))
        let decoded = try #require(DecodedHead(Array(Self.storedEarlier.utf8)))
        #expect(decoded.response.fields["Cache-Control"] == "max-age=600")
        #expect(decoded.response.secondaryKey.entries.map(\.value) == ["image/*", nil])
    }

    @Test func refusesBytesThatAreNotAHead() {
        #expect(StoredHead.decode([]) == nil)
        #expect(StoredHead.decode(Array("[1]".utf8)) == nil)
        #expect(StoredHead.decode(Array(Self.storedEarlier.utf8.dropLast())) == nil)
    }
}
