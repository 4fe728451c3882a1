import HTTPCaching
import MediaStorage

/// A stored response of the request's group, with what the pipeline needs to serve or update it.
struct Candidate: Sendable {
    var storeKey: String
    var response: StoredResponse
    var head: StoredHead
    var entry: StoredEntry
    /// The policy's time-to-live cap, seconds after the response time (`expiresAt` bookkeeping).
    var policyTTL: Int64
}
