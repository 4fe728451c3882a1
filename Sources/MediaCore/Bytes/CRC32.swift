/// CRC-32 as PNG computes it over a chunk's type and data (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320
/// reflected, initial and final XOR 0xFFFFFFFF; PNG 3rd edition §5.5 and Annex D).
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC of `bytes` (`CRC32.checksum("123456789".utf8) == 0xCBF43926`).
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC of `bytes[range]` (the same value as `checksum(bytes[range])`, without the generic iteration).
    public static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { buffer in
                for index in range { crc = table[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
