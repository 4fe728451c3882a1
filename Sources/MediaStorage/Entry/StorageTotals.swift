/// How much a store holds.
public struct StorageTotals: Hashable, Sendable {
    /// Bytes accounted against the store's byte limit (memory: key + head + body; files: file sizes).
    public var bytes: Int
    /// Number of entries.
    public var count: Int

    public init(bytes: Int, count: Int) {
        self.bytes = bytes
        self.count = count
    }
}
