import MediaCore

/// A cache tag's keyed digest (HMAC-SHA256 of the tag under the install's integrity key,
/// ``IntegrityKey/tagDigest(_:)``): 32 bytes held inline in four words, so an index keeps exactly 32 bytes per tag
/// and allocates nothing for it (a hex `String` took a heap block of its own, about four times as much).
///
/// Files keep it as 64 lower-case hex characters (``MetadataCoding``), as they always did; the audit log's `tag` is
/// the same text (``hex``).
public struct CacheTagDigest: Hashable, Sendable, CustomStringConvertible {
    /// Bytes held per tag in an index: 32.
    public static let byteCount = 32

    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// Wraps 32 digest bytes; `nil` for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.enumerated() { words[index / 8] = words[index / 8] << 8 | UInt64(byte) }
        self.words = (words[0], words[1], words[2], words[3])
    }

    /// Parses 64 hex characters; `nil` for anything else.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 2 * Self.byteCount, let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The 32 digest bytes, most significant first.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return bytes
    }

    /// 64 lower-case hex characters.
    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    public static func == (lhs: CacheTagDigest, rhs: CacheTagDigest) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
