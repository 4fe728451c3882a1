/// The keyed digests the stages take under the per-process keys (``MediaService`` gives its own): never the raw
/// credential or subject.
protocol RequestKeys: Sendable {
    /// The hex partition of a bearer token (``PartitionKeyer``), or `nil` once the keys are destroyed.
    func partition(for token: BearerToken) -> String?
    /// The hex partition of the bearer credential in one `Authorization` value as received, or `nil` when it is not
    /// one (malformed) or the keys are destroyed (``PartitionKeyer/partition(forAuthorization:)``).
    func partition(forAuthorization value: String) -> String?
    /// The hex partition of a signed URL's subject, or `nil` when the subject key cannot be used (stopping).
    func partition(forSubject subject: String) -> String?
    /// Hex HMAC-SHA256 of `value` (partitions of non-bearer credentials, secondary keys of sensitive `Vary` fields).
    func digest(_ value: String) -> String
}

extension RequestKeys {
    /// The value parsed (``BearerToken/parse(authorization:)``), then ``partition(for:)``.
    func partition(forAuthorization value: String) -> String? {
        guard let token = try? BearerToken.parse(authorization: value) else { return nil }
        return partition(for: token)
    }
}
