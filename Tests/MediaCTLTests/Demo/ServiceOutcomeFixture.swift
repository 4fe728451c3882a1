import MediaService

enum ServiceOutcomeFixture {
    static func outcome(storage: String?, reason: String?) -> ServiceOutcome {
        ServiceOutcome(route: "r", tier: "t", cacheStatus: nil, storage: storage.flatMap(Provenance.init), reason: reason)
    }
}
