/// One cache entry: metadata plus body bytes.
///
/// `body` is a copy-on-write array: the memory store hands out the same storage it holds (no copy).
public struct StoredEntry: Hashable, Sendable {
    /// Key, tier, route, partition, head, times.
    public var metadata: EntryMetadata
    /// The response body.
    public var body: [UInt8]

    /// An entry; `metadata.bodyByteCount` is set from `body`.
    public init(metadata: EntryMetadata, body: [UInt8]) {
        var metadata = metadata
        metadata.bodyByteCount = body.count
        self.metadata = metadata
        self.body = body
    }
}
