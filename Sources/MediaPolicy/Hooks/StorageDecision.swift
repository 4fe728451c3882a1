import MediaCore

/// Where and how long a response is kept, and why.
public struct StorageDecision: Sendable, Hashable {
    /// One step of the hook chain that set, narrowed or clamped the decision.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// `rfc9111`, `tier`, `limits`, or `hook:<StorageHook.name>`.
        public var stage: String
        /// The class after this step.
        public var storage: StorageClass
        /// The time to live after this step, seconds.
        public var ttl: Int
        /// Why.
        public var reason: StorageReason

        /// `stage: storage ttl=N reason`, e.g. `tier: disk ttl=300 unversioned-max-ttl`.
        public var description: String { "\(stage): \(storage) ttl=\(ttl) \(reason)" }
    }

    /// The decided class.
    public var storage: StorageClass
    /// Time to live, seconds; 0 when ``storage`` is `none` (or when a stored object must be revalidated at once).
    public var ttl: Int
    /// The reason of the last step that set the class (the audit record's `reason`).
    public var reason: StorageReason
    /// Every step that set, narrowed or clamped the decision, in order.
    public var trail: [Step]

    public init(storage: StorageClass, ttl: Int, reason: StorageReason, trail: [Step]) {
        self.storage = storage
        self.ttl = ttl
        self.reason = reason
        self.trail = trail
    }
}
