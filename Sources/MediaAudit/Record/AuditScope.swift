/// Who a record concerns: the `partition` and `url` fields together.
///
/// A record is either shared (no partition, optionally a URL) or partitioned (a keyed digest of the
/// credential and never a URL). The enum makes a URL on a partitioned record unrepresentable.
public enum AuditScope: Hashable, Sendable {
    /// A shared-tier record; `url` only when the tier allows URLs in the log.
    case shared(url: AuditURL?)
    /// A record of a partitioned tier: the hex keyed digest of the credential.
    case partitioned(AuditDigest)

    /// A shared record without a URL.
    public static let none = AuditScope.shared(url: nil)

    /// Builds a scope from the two JSON fields.
    /// - Throws: ``AuditError/Code/urlWithPartition`` when both are present.
    public init(partition: AuditDigest?, url: AuditURL?) throws {
        switch (partition, url) {
        case (nil, let url): self = .shared(url: url)
        case (let partition?, nil): self = .partitioned(partition)
        case (.some, .some):
            throw AuditError(.urlWithPartition, "a partitioned record cannot carry a url")
        }
    }

    /// The `partition` field: the digest, or `nil` for shared records.
    public var partition: AuditDigest? {
        if case .partitioned(let digest) = self { return digest }
        return nil
    }

    /// The `url` field: present only on shared records that carry one.
    public var url: AuditURL? {
        if case .shared(let url) = self { return url }
        return nil
    }
}
