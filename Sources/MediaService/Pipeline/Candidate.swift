import HTTPCaching
import MediaStorage

/// A stored response of the request's group, with what the pipeline needs to serve or update it.
struct Candidate: Sendable {
    var storeKey: String
    var response: StoredResponse
    var head: StoredHead
    var entry: StoredEntry
    /// The policy's time-to-live cap as an age in seconds (RFC 9111 §4.2.3 current age): the
    /// decided ttl plus the age the response already had when received.
    var policyTTL: Int64
}
