import HTTPCaching
import MediaCore
import MediaStorage

/// The representation behind an answer (RFC 9110 §3.2): a stored response served as it is, or what an
/// origin exchange produced (stored or not). A derived image is made from one
/// (``ImageDerivation/derive(from:original:context:stored:selection:reason:staleSource:stale:)``).
///
/// Both cases hold values the pipeline built anyway; reading a field costs no copy of the body.
enum Representation: Sendable {
    /// A stored response served from the cache (fresh, stale where allowed, or after an origin error).
    case stored(Candidate)
    /// An origin exchange's content (a new response, or a stored one a `304` updated).
    case exchanged(Exchange.Content)

    /// The stored response: the origin's fields as stored (RFC 9111 §3).
    var response: StoredResponse {
        switch self {
        case .stored(let candidate): candidate.response
        case .exchanged(let content): content.response
        }
    }

    var head: StoredHead {
        switch self {
        case .stored(let candidate): candidate.head
        case .exchanged(let content): content.head
        }
    }

    /// The body as served (after metadata stripping on tiers that strip).
    var body: [UInt8] {
        switch self {
        case .stored(let candidate): candidate.entry.body
        case .exchanged(let content): content.body
        }
    }

    /// The store key of the stored representation, or `nil` when it was not stored.
    var storeKey: String? {
        switch self {
        case .stored(let candidate): candidate.storeKey
        case .exchanged(let content): content.storeKey
        }
    }

    /// The class it is stored in (`disk`, `encrypted-disk`, `memory`), `none` when it was not stored.
    var storage: StorageClass {
        switch self {
        case .stored(let candidate): StorageClass(rawValue: candidate.head.storage) ?? .none
        case .exchanged(let content):
            if content.storeKey != nil, case .stored(let storageClass) = content.storage { storageClass } else { .none }
        }
    }

    /// The keyed digests of its cache tags (docs/policy-format.md, "Cache tags"): what its variants inherit.
    var tags: [CacheTagDigest] {
        switch self {
        case .stored(let candidate): candidate.entry.metadata.tags
        case .exchanged(let content): content.tags
        }
    }

    /// When the stored representation may be swept (``MediaStorage/EntryMetadata/expiresAt``, seconds since the
    /// epoch), or `nil` when it was not stored.
    var expiresAt: Double? {
        switch self {
        case .stored(let candidate): candidate.entry.metadata.expiresAt
        case .exchanged(let content): content.expiresAt
        }
    }
}
