import MediaStorage

extension MediaService {
    /// The keyed digest under the install's integrity key of cache tag `tag` (64 lower-case hex): what stored entries
    /// carry instead of the tag and what the summary record of a purge by tag names (`tag`), so an auditor who knows a
    /// tag can find its purges in the log, and nobody can read tags from the log or the files.
    public func cacheTagDigest(_ tag: String) -> String { integrityKey.tagDigest(tag).hex }

    /// Removes the stored responses of `scope` from memory and disk, audited as one `purge` batch (``PurgeStage``).
    /// - Returns: the number of stored responses removed (for a soft purge by tag: marked stale).
    /// - Throws: ``ServiceError`` `unknown-route`, `invalid-subject`, `invalid-tag`, `audit` (``PurgeStage/purge(_:)``).
    @discardableResult
    public func purge(_ scope: PurgeScope) throws -> Int {
        try purgeStage.purge(scope)
    }

    /// The purge stage over this service's commit stage, policy snapshot, keyer, subject keys and clock.
    var purgeStage: PurgeStage {
        PurgeStage(commit: storeCommit, routes: hitRoutes, keyer: keys.keyer, subjects: { [keys] () throws(ServiceError) in try keys.subjects() },
                   clock: configuration.clock)
    }
}
