import MediaCore

/// What a user hook is offered and answers: a class and a time to live.
public struct StorageChoice: Sendable, Hashable {
    /// The storage class.
    public var storage: StorageClass
    /// Time to live, seconds.
    public var ttl: Int

    public init(storage: StorageClass, ttl: Int) {
        self.storage = storage
        self.ttl = ttl
    }
}

/// A user hook of the storage chain, like URLSession's `willCacheResponse`: it sees the proposal
/// and the choice so far, and may keep it, narrow it, or veto storage.
///
/// Hooks can only narrow: an answer wider than the offer (a wider class or a longer time to live) is
/// clamped to the offer and recorded as ``StorageReason/hookWideningClamped``. Hooks are not called
/// once the decision is `none`.
public protocol StorageHook: Sendable {
    /// The hook's name in the trail (`hook:<name>`). Default: the type name.
    var name: String { get }

    /// The choice for `proposal`, given the chain's `proposed` choice so far.
    /// - Returns: `proposed` (the default) to keep it, a narrower choice, or `nil` to store nothing
    ///   (recorded as `hook-narrowed:none`).
    func willStore(_ proposal: StorageProposal, proposed: StorageChoice) -> StorageChoice?
}

extension StorageHook {
    public var name: String { String(describing: Self.self) }

    public func willStore(_ proposal: StorageProposal, proposed: StorageChoice) -> StorageChoice? { proposed }
}
