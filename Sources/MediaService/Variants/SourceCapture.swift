import HTTPCaching
import Synchronization

/// What the source path served to the variant path: the stored response (origin fields), its head, body,
/// and where it is stored. Written once by ``MediaService/serve(_:)`` or ``MediaService/forward(_:decision:candidates:conditional:reason:)``
/// for a context that carries the capture.
final class SourceCapture: Sendable {
    struct Source: Sendable {
        var response: StoredResponse
        var head: StoredHead
        var body: [UInt8]
        /// The store key of the stored source, or `nil` when it was not stored.
        var storeKey: String?
        /// The decided class it is stored in (`disk`, `encrypted-disk`, `memory`), or `none`.
        var storage: String
        /// When the stored source may be swept (``MediaStorage/EntryMetadata/expiresAt``), or `nil`.
        var expiresAt: Double?
    }

    private let value = Mutex<Source?>(nil)

    func set(_ source: Source) { value.withLock { $0 = source } }

    var source: Source? { value.withLock { $0 } }
}

extension SourceCapture.Source {
    /// A stored candidate served as is (a hit, or stale where allowed).
    init(_ candidate: Candidate) {
        self.init(response: candidate.response, head: candidate.head, body: candidate.entry.body,
                  storeKey: candidate.storeKey, storage: candidate.head.storage, expiresAt: candidate.entry.metadata.expiresAt)
    }

    /// An origin exchange's representation (stored or not).
    init(_ content: Exchange.Content) {
        self.init(response: content.response, head: content.head, body: content.body, storeKey: content.storeKey,
                  storage: content.storeKey == nil ? "none" : content.storage, expiresAt: content.expiresAt)
    }
}
