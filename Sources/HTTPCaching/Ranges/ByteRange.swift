/// One satisfiable byte range of a representation (RFC 9110 §14.1.2): the offsets of its first and last
/// byte, both inclusive and zero-based, with `0 <= first <= last < length` of the representation it was
/// resolved against (``ByteRangeRequest/resolve(length:)``).
public struct ByteRange: Sendable, Hashable {
    /// Offset of the first byte sent.
    public var first: Int
    /// Offset of the last byte sent (inclusive).
    public var last: Int

    public init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    /// The number of bytes in the range, `last - first + 1`.
    public var count: Int { last - first + 1 }

    /// The offsets as a half-open range, for slicing the representation data: `first ..< last + 1`.
    public var offsets: Range<Int> { first..<(last + 1) }
}
