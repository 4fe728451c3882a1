/// The binary encoding of ``StoredHead`` (docs/storage.md, "Stored head"): hand-written, no
/// `JSONEncoder`, about 20× cheaper to write and read than the JSON it replaces.
///
/// Layout (integers little-endian; a string is `u32 length ‖ UTF-8 bytes`; a list of string lists is
/// `u32 count`, then per item `u8 parts ‖ parts × string`):
///
/// ```
/// u8 0x00 (magic: never the first byte of JSON) ‖ u8 version = 1
/// ‖ i64 status ‖ i64 requestTime ‖ i64 responseTime ‖ i64 policyTTL
/// ‖ string method ‖ string storage
/// ‖ u8 presence (bit 0 contentType, bit 1 width, bit 2 height)
/// ‖ [string contentType] ‖ [i64 width] ‖ [i64 height]
/// ‖ list fields ([name, value] each) ‖ list vary ([name, value] or [name])
/// ```
///
/// Decoding checks every length against the bytes left, the version, that the presence byte has
/// no unknown bit, and that nothing follows the last list; any failure gives `nil`.
extension StoredHead {
    /// The first byte of a binary head (JSON heads start with `{`).
    static let binaryMagic: UInt8 = 0x00
    /// The binary version written by ``binaryEncoded()``.
    static let binaryVersion: UInt8 = 1

    /// The head in binary format version 1.
    func binaryEncoded() -> [UInt8] {
        var out: [UInt8] = []
        var capacity = 64 + method.utf8.count + storage.utf8.count + (contentType?.utf8.count ?? 0)
        for list in [fields, vary] { for item in list { capacity += 1; for part in item { capacity += 4 + part.utf8.count } } }
        out.reserveCapacity(capacity)
        out.append(Self.binaryMagic)
        out.append(Self.binaryVersion)
        Self.append(Int64(status), to: &out)
        Self.append(requestTime, to: &out)
        Self.append(responseTime, to: &out)
        Self.append(policyTTL, to: &out)
        Self.append(method, to: &out)
        Self.append(storage, to: &out)
        out.append((contentType == nil ? 0 : 1) | (width == nil ? 0 : 2) | (height == nil ? 0 : 4))
        if let contentType { Self.append(contentType, to: &out) }
        if let width { Self.append(Int64(width), to: &out) }
        if let height { Self.append(Int64(height), to: &out) }
        Self.append(fields, to: &out)
        Self.append(vary, to: &out)
        return out
    }

    /// Decodes binary format version 1; `nil` for another version or malformed bytes.
    static func decodeBinary(_ bytes: [UInt8]) -> StoredHead? {
        bytes.withUnsafeBufferPointer { buffer -> StoredHead? in
            var reader = BinaryHeadReader(buffer: buffer)
            guard reader.byte() == binaryMagic, reader.byte() == binaryVersion,
                  let status = reader.int64(), let requestTime = reader.int64(), let responseTime = reader.int64(),
                  let policyTTL = reader.int64(), let method = reader.string(), let storage = reader.string(),
                  let presence = reader.byte(), presence & ~7 == 0
            else { return nil }
            var contentType: String?, width: Int?, height: Int?
            if presence & 1 != 0 { guard let value = reader.string() else { return nil }; contentType = value }
            if presence & 2 != 0 { guard let value = reader.int64() else { return nil }; width = Int(value) }
            if presence & 4 != 0 { guard let value = reader.int64() else { return nil }; height = Int(value) }
            guard let fields = reader.lists(), let vary = reader.lists(), reader.isAtEnd,
                  let status = Int(exactly: status)
            else { return nil }
            return StoredHead(status: status, fields: fields, requestTime: requestTime, responseTime: responseTime,
                              method: method, vary: vary, contentType: contentType, width: width, height: height,
                              storage: storage, policyTTL: policyTTL)
        }
    }

    /// Memberwise, for decoders.
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

    private static func append(_ value: Int64, to out: inout [UInt8]) {
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    private static func append(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        let utf8 = text.utf8
        append(UInt32(truncatingIfNeeded: utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }

    private static func append(_ lists: [[String]], to out: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: lists.count), to: &out)
        for item in lists {
            // Heads built by `init(_:contentType:…)` have 1 or 2 parts; more than 255 cannot be written.
            let parts = item.prefix(255)
            out.append(UInt8(parts.count))
            for part in parts { append(part, to: &out) }
        }
    }
}

/// A bounds-checked little-endian cursor over binary head bytes; every read returns `nil` past the end.
struct BinaryHeadReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var offset = 0

    var isAtEnd: Bool { offset == buffer.count }

    mutating func byte() -> UInt8? {
        guard offset < buffer.count else { return nil }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func uint32() -> UInt32? {
        guard buffer.count - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(buffer[offset + index]) << UInt32(8 * index) }
        offset += 4
        return value
    }

    mutating func int64() -> Int64? {
        guard buffer.count - offset >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(buffer[offset + index]) << UInt64(8 * index) }
        offset += 8
        return Int64(bitPattern: value)
    }

    mutating func string() -> String? {
        guard let length = uint32().map(Int.init), buffer.count - offset >= length else { return nil }
        defer { offset += length }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<(offset + length)]), as: UTF8.self)
    }

    mutating func lists() -> [[String]]? {
        guard let count = uint32().map(Int.init), count <= buffer.count - offset else { return nil }
        var lists: [[String]] = []
        lists.reserveCapacity(count)
        for _ in 0..<count {
            guard let parts = byte() else { return nil }
            var item: [String] = []
            item.reserveCapacity(Int(parts))
            for _ in 0..<parts {
                guard let part = string() else { return nil }
                item.append(part)
            }
            lists.append(item)
        }
        return lists
    }
}
