/// One target's admission and what the last fast hit on it learned. Immutable once made (a hit
/// that learns something keeps a new slot), so a lookup costs one retain.
///
/// Everything remembered is checked before use, so slots kept by racing threads in any order stay
/// correct: the store key against the variants index generation, the entry against the stored
/// head's identity, the texts against the age and freshness limit they were made for.
final class HitSlot: @unchecked Sendable {
    let route: HitRoute
    /// The group's only store key when the variants index held exactly one at ``generation``.
    let storeKey: String?
    /// The variants index generation ``storeKey`` was read at, or -1 before the first read.
    let generation: Int
    /// The entry data last served. Weak: it lives with its stored entry, the slot never keeps it.
    /// Written only by `init` (hence `@unchecked Sendable`: weak references load atomically).
    private(set) weak var hit: HitEntry?
    /// `Age` and `Cache-Status` values last sent, for ``textsAge`` and ``textsLimit``.
    let texts: (age: String, cacheStatus: String)?
    let textsAge: Int64
    let textsLimit: Int64
    /// A signed URL's `Cache-Control` (``SignedAnswer/cacheControl(_:status:remaining:)``) for the prepared value `base`
    /// with `remaining` seconds left: kept until the second or the stored response changes.
    let signedText: (remaining: Int64, base: String?, value: String?)?

    init(route: HitRoute, storeKey: String? = nil, generation: Int = -1, hit: HitEntry? = nil,
         texts: (age: String, cacheStatus: String)? = nil, textsAge: Int64 = -1, textsLimit: Int64 = -1,
         signedText: (remaining: Int64, base: String?, value: String?)? = nil) {
        self.route = route
        self.storeKey = storeKey
        self.generation = generation
        self.hit = hit
        self.texts = texts
        self.textsAge = textsAge
        self.textsLimit = textsLimit
        self.signedText = signedText
    }
}
