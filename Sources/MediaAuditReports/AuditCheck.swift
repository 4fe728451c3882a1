import MediaAudit

/// One check `mediactl audit` performs, as the reports name it: a JUnit `testcase`, a row of the HTML
/// page. Each check passes when the report has no violation of its ``kind``.
///
/// ``all`` lists every check in the order the reports show them: the chain check (``Scope/log``), then
/// the per-tier checks (``Scope/tier``), objects first, then `store` records, then variants.
public struct AuditCheck: Hashable, Sendable {
    /// Where the check applies.
    public enum Scope: Hashable, Sendable {
        /// Once for the whole log (the hash chain).
        case log
        /// Once per tier.
        case tier
    }

    /// The name for people, e.g. `no unrecorded object`.
    public let name: String
    /// The violation kind the check looks for.
    public let kind: AuditViolation.Kind
    /// Whether it applies to the log or to each tier.
    public let scope: Scope

    public init(_ name: String, kind: AuditViolation.Kind, scope: Scope) {
        self.name = name
        self.kind = kind
        self.scope = scope
    }

    /// Every check, in report order (one per ``MediaAudit/AuditViolation/Kind``).
    public static let all: [AuditCheck] = [
        AuditCheck("chain intact", kind: .brokenChain, scope: .log),
        AuditCheck("no plaintext under sealed/", kind: .notSealed, scope: .tier),
        AuditCheck("no disk object in a tier that does not allow disk", kind: .diskNotAllowed, scope: .tier),
        AuditCheck("no unrecorded object", kind: .unrecordedObject, scope: .tier),
        AuditCheck("no removed object still present", kind: .removedObjectPresent, scope: .tier),
        AuditCheck("every object in the storage its store record names", kind: .storageMismatch, scope: .tier),
        AuditCheck("every disk object's body as recorded", kind: .bodyMismatch, scope: .tier),
        AuditCheck("no store in a no-store tier", kind: .storeInNoStoreTier, scope: .tier),
        AuditCheck("no store wider than the tier allows", kind: .storeWiderThanTier, scope: .tier),
        AuditCheck("tier defined by the policies", kind: .unknownTier, scope: .tier),
        AuditCheck("no variant wider than its source", kind: .variantWiderThanSource, scope: .tier),
        AuditCheck("every variant in its source's partition", kind: .variantPartitionMismatch, scope: .tier),
        AuditCheck("every variant in its source's tier", kind: .variantTierMismatch, scope: .tier),
        AuditCheck("every variant's source recorded", kind: .variantSourceUnrecorded, scope: .tier),
    ]

    /// The checks of one scope, in report order.
    public static func checks(_ scope: Scope) -> [AuditCheck] { all.filter { $0.scope == scope } }

    /// The check for `kind`: a known one, else a tier check named after the kind (a kind added to the
    /// reconciler before this list, or read from a newer report's JSON).
    public static func check(for kind: AuditViolation.Kind) -> AuditCheck {
        all.first { $0.kind == kind } ?? AuditCheck(kind.rawValue, kind: kind, scope: .tier)
    }
}
