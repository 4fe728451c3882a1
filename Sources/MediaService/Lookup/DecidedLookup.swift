/// A ``CacheLookup/Group`` and what it decided, handed from the synchronous path to the async one
/// (``AdmittedRequest``), so a request's stored responses are loaded and decided on once.
struct DecidedLookup: Sendable {
    let lookup: CacheLookup.Group
    let outcome: CacheLookup.Outcome
}
