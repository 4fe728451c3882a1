/// Appends big-endian integers and length-prefixed fields to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func append(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    /// `u32 length ‖ bytes`.
    mutating func appendField(_ field: some Collection<UInt8>) {
        append(UInt32(field.count))
        bytes.append(contentsOf: field)
    }

    mutating func appendField(_ text: String) { appendField(text.utf8) }
}

/// Reads what ``ByteWriter`` wrote; every read returns `nil` past the end.
struct ByteCursor {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func readUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func readUInt32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value = value << 8 | UInt32(bytes[offset + index]) }
        offset += 4
        return value
    }

    mutating func readUInt64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += 8
        return value
    }

    mutating func readDouble() -> Double? { readUInt64().map(Double.init(bitPattern:)) }

    mutating func readByte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readField() -> [UInt8]? {
        guard let length = readUInt32().map(Int.init), remaining >= length else { return nil }
        defer { offset += length }
        return Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
    }

    /// A UTF-8 field; `nil` when absent or not valid UTF-8.
    mutating func readString() -> String? {
        guard let field = readField() else { return nil }
        return String(validating: field, as: UTF8.self)
    }
}

/// Binary encoding of ``EntryMetadata`` (without `bodyByteCount`, which the file header carries):
/// `key ‖ tier ‖ route ‖ u8 hasPartition [‖ partition] ‖ storageClass ‖ head ‖ f64 requestTime ‖
/// f64 responseTime ‖ f64 expiresAt [‖ f64 lifetime [‖ u32 tagCount ‖ tag…]]`; strings and head are `u32 length ‖
/// bytes`, numbers big-endian. The lifetime is written when known, the tags when there are some (and a lifetime);
/// metadata written without them (earlier files) still decodes.
enum MetadataCoding {
    static func encode(_ metadata: EntryMetadata) -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + metadata.key.utf8.count + metadata.head.count)
        writer.appendField(metadata.key)
        writer.appendField(metadata.tier)
        writer.appendField(metadata.route)
        if let partition = metadata.partition {
            writer.bytes.append(1)
            writer.appendField(partition)
        } else {
            writer.bytes.append(0)
        }
        writer.appendField(metadata.storageClass.rawValue)
        writer.appendField(metadata.head)
        writer.append(metadata.requestTime)
        writer.append(metadata.responseTime)
        writer.append(metadata.expiresAt)
        if let lifetime = metadata.lifetime {
            writer.append(lifetime)
            if !metadata.tags.isEmpty {
                writer.append(UInt32(metadata.tags.count))
                for tag in metadata.tags { writer.appendField(tag.hex) }
            }
        }
        return writer.bytes
    }

    /// Decodes exactly `bytes`; `nil` when malformed or when bytes are left over.
    static func decode(_ bytes: UnsafeRawBufferPointer, bodyByteCount: Int) -> EntryMetadata? {
        var reader = ByteCursor(bytes)
        guard let key = reader.readString(), let tier = reader.readString(), let route = reader.readString(),
              let hasPartition = reader.readByte(), hasPartition <= 1 else { return nil }
        var partition: String?
        if hasPartition == 1 {
            guard let value = reader.readString() else { return nil }
            partition = value
        }
        guard let storageClass = reader.readString(), let head = reader.readField(),
              let requestTime = reader.readDouble(), let responseTime = reader.readDouble(),
              let expiresAt = reader.readDouble() else { return nil }
        var lifetime: Double?
        var tags: [CacheTagDigest] = []
        if reader.remaining >= 8 { lifetime = reader.readDouble() }
        if reader.remaining > 0 {
            guard let count = reader.readUInt32().map(Int.init), count > 0, count <= reader.remaining / 4 else { return nil }
            for _ in 0..<count {
                guard let text = reader.readString(), let tag = CacheTagDigest(hex: text) else { return nil }
                tags.append(tag)
            }
        }
        guard reader.remaining == 0 else { return nil }
        return EntryMetadata(
            key: key, tier: tier, route: route, partition: partition, storageClass: StorageClassName(storageClass),
            head: head, requestTime: requestTime, responseTime: responseTime, expiresAt: expiresAt,
            bodyByteCount: bodyByteCount, lifetime: lifetime, tags: tags)
    }
}
